package dev.locksmith.internal.cdi;

import dev.locksmith.LockType;
import dev.locksmith.Locked;
import dev.locksmith.WhenHeld;
import jakarta.enterprise.lang.model.AnnotationInfo;
import jakarta.enterprise.lang.model.AnnotationMember;
import jakarta.enterprise.util.AnnotationLiteral;
import java.time.temporal.ChronoUnit;
import java.util.function.Function;

/**
 * A {@code @Locked} as a CDI Lite container's annotation model shows it, as an instance of the
 * annotation, so that the build compatible extension checks it with the code the portable
 * extension uses ({@link LockedOperation#resolve}). A member the model does not show takes the
 * annotation's default.
 */
final class LockedValues extends AnnotationLiteral<Locked> implements Locked {
    private static final long serialVersionUID = 1L;

    private final String value;
    private final long waitTime;
    private final long leaseTime;
    private final long minHold;
    private final WhenHeld whenHeld;
    private final ChronoUnit unit;
    private final LockType type;
    private final boolean fenced;
    private final String waitDuration;
    private final String leaseDuration;
    private final String minHoldDuration;
    private final String job;

    private LockedValues(AnnotationInfo locked) {
        this.value = member(locked, "value", AnnotationMember::asString);
        this.waitTime = member(locked, "waitTime", AnnotationMember::asLong);
        this.leaseTime = member(locked, "leaseTime", AnnotationMember::asLong);
        this.minHold = member(locked, "minHold", AnnotationMember::asLong);
        this.whenHeld = member(locked, "whenHeld", member -> member.asEnum(WhenHeld.class));
        this.unit = member(locked, "unit", member -> member.asEnum(ChronoUnit.class));
        this.type = member(locked, "type", member -> member.asEnum(LockType.class));
        this.fenced = member(locked, "fenced", AnnotationMember::asBoolean);
        this.waitDuration = member(locked, "waitDuration", AnnotationMember::asString);
        this.leaseDuration = member(locked, "leaseDuration", AnnotationMember::asString);
        this.minHoldDuration = member(locked, "minHoldDuration", AnnotationMember::asString);
        this.job = member(locked, "job", AnnotationMember::asString);
    }

    /**
     * @param locked a {@code @Locked} of the container's model
     * @return the same values as an annotation instance
     */
    static Locked of(AnnotationInfo locked) {
        return new LockedValues(locked);
    }

    private static <T> T member(AnnotationInfo locked, String name, Function<AnnotationMember, T> read) {
        if (locked.hasMember(name)) {
            return read.apply(locked.member(name));
        }
        try {
            @SuppressWarnings("unchecked") // the member's own type, boxed
            T byDefault = (T) Locked.class.getMethod(name).getDefaultValue();
            return byDefault;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("@Locked has no member " + name, e);
        }
    }

    @Override
    public String value() {
        return value;
    }

    @Override
    public long waitTime() {
        return waitTime;
    }

    @Override
    public long leaseTime() {
        return leaseTime;
    }

    @Override
    public long minHold() {
        return minHold;
    }

    @Override
    public WhenHeld whenHeld() {
        return whenHeld;
    }

    @Override
    public ChronoUnit unit() {
        return unit;
    }

    @Override
    public LockType type() {
        return type;
    }

    @Override
    public boolean fenced() {
        return fenced;
    }

    @Override
    public String waitDuration() {
        return waitDuration;
    }

    @Override
    public String leaseDuration() {
        return leaseDuration;
    }

    @Override
    public String minHoldDuration() {
        return minHoldDuration;
    }

    @Override
    public String job() {
        return job;
    }
}
