package dev.locksmith.internal.config;

/**
 * A manager setting that {@link SettingsDraft#check()} refused, and which one: the builder throws
 * it as it is, MicroProfile Config puts its key and the configured text in front of the message.
 */
public final class SettingException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient Setting setting;

    /**
     * @param setting the refused setting
     * @param message what is wrong with its value and the fix, starting with the setting and the value
     */
    public SettingException(Setting setting, String message) {
        super(message);
        this.setting = setting;
    }

    /**
     * @return the refused setting
     */
    public Setting setting() {
        return setting;
    }
}
