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
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.lang.model.declarations.ClassInfo;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * {@link LocksmithLiteExtension} without its {@code @SkipIfPortableExtensionPresent}, so that Weld
 * runs it as a CDI Lite container would: Weld, a CDI Full container, skips every build compatible
 * extension that carries that annotation. Weld's translator reads only declared methods, hence
 * the overrides.
 *
 * <p>Weld's translator (5.1) also builds {@code BeanInfo.declaringClass()} from the bean's class
 * anew, so its model lacks the annotations that transformations (another extension's
 * {@code @Enhancement}) added, which Weld itself applies and Quarkus's ArC shows in its model. The
 * bean's registration is therefore shown the model of the bean's own, transformed
 * {@code AnnotatedType}, as ArC shows it.
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
        super.noteLockedMethods(transformed(bean));
    }

    private static BeanInfo transformed(BeanInfo bean) {
        if (!bean.isClassBean()) {
            return bean;
        }
        ClassInfo declaringClass = transformedClass(bean);
        InvocationHandler handler = (proxy, method, arguments) -> {
            if (method.getName().equals("declaringClass")) {
                return declaringClass;
            }
            try {
                return method.invoke(bean, arguments);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (BeanInfo) Proxy.newProxyInstance(WeldLiteExtension.class.getClassLoader(), new Class<?>[] {BeanInfo.class},
                handler);
    }

    /**
     * @return Weld's model of the bean's {@code AnnotatedType}, the one Weld deploys the bean from
     */
    private static ClassInfo transformedClass(BeanInfo bean) {
        try {
            Field annotated = bean.getClass().getDeclaredField("cdiDeclaration");
            Field beanManager = bean.getClass().getDeclaredField("bm");
            annotated.setAccessible(true);
            beanManager.setAccessible(true);
            Constructor<?> classInfo = Class.forName("org.jboss.weld.lite.extension.translator.ClassInfoImpl")
                    .getDeclaredConstructor(AnnotatedType.class, BeanManager.class);
            classInfo.setAccessible(true);
            return (ClassInfo) classInfo.newInstance(annotated.get(bean), beanManager.get(bean));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Weld's translator changed: its BeanInfo for " + bean
                    + " no longer has the fields this test adapter reads", e);
        }
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
