package dev.locksmith.internal.cdi;

import dev.locksmith.Fence;

/**
 * Where {@code @Locked(fenced = true)} checks fencing tokens, read from configuration and checked
 * when the container starts.
 *
 * @param dataSource  a JNDI name, or the name of a {@code DataSource} CDI bean
 * @param fence       the fence table
 * @param createTable whether a missing table is created at startup
 */
record FencingSettings(String dataSource, Fence fence, boolean createTable) {

    /**
     * @param values where settings come from
     * @return the checked settings
     * @throws IllegalArgumentException naming the bad key, its value and the fix
     */
    static FencingSettings read(ConfigValues values) {
        String table = ConfigKey.FENCING_TABLE.read(values);
        Fence fence;
        try {
            fence = Fence.table(table);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ConfigKey.FENCING_TABLE.key() + ": " + e.getMessage(), e);
        }
        String create = ConfigKey.FENCING_CREATE_TABLE.read(values);
        if (!create.equalsIgnoreCase("true") && !create.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException(ConfigKey.FENCING_CREATE_TABLE.key() + " = '" + create
                    + "' is not true or false (default " + ConfigKey.FENCING_CREATE_TABLE.defaultValue() + ")");
        }
        return new FencingSettings(ConfigKey.FENCING_DATA_SOURCE.read(values), fence, Boolean.parseBoolean(create));
    }

    /**
     * @return whether the data source is the default one a Jakarta EE server binds
     */
    boolean defaultDataSource() {
        return dataSource.equals(ConfigKey.FENCING_DATA_SOURCE.defaultValue());
    }
}
