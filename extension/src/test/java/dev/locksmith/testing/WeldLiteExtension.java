package dev.locksmith.testing;

import dev.locksmith.internal.cdi.LocksmithLiteExtension;
import jakarta.enterprise.inject.build.compatible.spi.BeanInfo;
import jakarta.enterprise.inject.build.compatible.spi.Discovery;
import jakarta.enterprise.inject.build.compatible.spi.Messages;
import jakarta.enterprise.inject.build.compatible.spi.Registration;
import jakarta.enterprise.inject.build.compatible.spi.ScannedClasses;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.enterprise.inject.build.compatible.spi.Validation;

/**
 * {@link LocksmithLiteExtension} without its {@code @SkipIfPortableExtensionPresent}, so that Weld
 * runs it as a CDI Lite container would: Weld, a CDI Full container, skips every build compatible
 * extension that carries that annotation. Weld's translator reads only declared methods, hence
 * the overrides.
 */
public class WeldLiteExtension extends LocksmithLiteExtension {
    @Override
    @Discovery
    public void addInterceptors(ScannedClasses classes) {
        super.addInterceptors(classes);
    }

    @Override
    @Registration(types = Object.class)
    public void noteLockedMethods(BeanInfo bean) {
        super.noteLockedMethods(bean);
    }

    @Override
    @Synthesis
    public void addBeans(SyntheticComponents components) {
        super.addBeans(components);
    }

    @Override
    @Validation
    public void validate(Messages messages) {
        super.validate(messages);
    }
}
