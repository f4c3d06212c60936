package dev.locksmith.sample.quarkus;

import dev.locksmith.Locked;
import jakarta.enterprise.inject.build.compatible.spi.AnnotationBuilder;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.Enhancement;
import jakarta.enterprise.inject.build.compatible.spi.MethodConfig;

/**
 * Adds {@code @Locked("stock:{sku}")} to {@link TransformedReservations#reserve}, the CDI Lite way
 * of changing annotations when the application is built. Listed in
 * {@code META-INF/services/jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension}.
 * Locksmith reads the container's annotation model, so it checks and runs this {@code @Locked} as
 * one written in the source.
 */
public class LockedByTransformation implements BuildCompatibleExtension {
    /** The lock name template added, the one {@code LockedReservations} uses. */
    public static final String TEMPLATE = "stock:{sku}";

    /**
     * @param method a method of {@link TransformedReservations}
     */
    @Enhancement(types = TransformedReservations.class)
    public void lockReservations(MethodConfig method) {
        if (method.info().name().equals("reserve")) {
            method.addAnnotation(AnnotationBuilder.of(Locked.class).value(TEMPLATE).build());
        }
    }
}
