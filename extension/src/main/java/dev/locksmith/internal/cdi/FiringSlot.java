package dev.locksmith.internal.cdi;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

/**
 * Where the slot of a scheduled method's current firing comes from ({@code {slot}} in a
 * {@code @Locked} name): the scheduled time of this firing, not of the next, read from what the
 * runtime hands the call. The runtimes' types are named, never linked, so the library loads where
 * neither Enterprise Beans nor Quarkus is present.
 *
 * <ul>
 *   <li>an EJB timeout method ({@code @Schedule}, {@code @Timeout}): the timer the interceptor sees
 *       ({@code InvocationContext.getTimer()}) or a {@code jakarta.ejb.Timer} parameter; the slot is
 *       the calendar schedule's last instant before the timer's next timeout
 *       ({@link CalendarSchedule}); an interval timer has no schedule to read, so its call fails;</li>
 *   <li>a Quarkus {@code @Scheduled} method with an {@code io.quarkus.scheduler.ScheduledExecution}
 *       parameter: its {@code getScheduledFireTime()}.</li>
 * </ul>
 *
 * @param timerParameter     the index of a {@code jakarta.ejb.Timer} parameter, or -1
 * @param executionParameter the index of a Quarkus {@code ScheduledExecution} parameter, or -1
 * @param timeoutMethod      whether the method is an EJB timeout method by its annotations
 */
record FiringSlot(int timerParameter, int executionParameter, boolean timeoutMethod) {
    static final String EJB_TIMER = "jakarta.ejb.Timer";
    static final String QUARKUS_EXECUTION = "io.quarkus.scheduler.ScheduledExecution";
    private static final String SCHEDULE = "jakarta.ejb.Schedule";
    private static final String SCHEDULES = "jakarta.ejb.Schedules";
    private static final String TIMEOUT = "jakarta.ejb.Timeout";

    /**
     * @param method a {@code @Locked} method whose name has {@code {slot}}
     * @return where its slot comes from
     * @throws IllegalArgumentException when the method gets no firing time from its runtime, or its
     *                                  {@code @Schedule} has a value {@link CalendarSchedule} cannot read
     */
    static FiringSlot of(Method method) {
        int timer = -1;
        int execution = -1;
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            if (types[i].getName().equals(EJB_TIMER)) {
                timer = i;
            } else if (types[i].getName().equals(QUARKUS_EXECUTION)) {
                execution = i;
            }
        }
        List<Annotation> schedules = schedules(method);
        boolean timeout = !schedules.isEmpty() || annotated(method, TIMEOUT);
        if (timer < 0 && execution < 0 && !timeout) {
            throw new IllegalArgumentException("{slot} is the scheduled time of the method's current firing, which"
                    + " only an EJB timeout method (@Schedule, @Timeout) or a Quarkus @Scheduled method with a"
                    + " ScheduledExecution parameter hands the call; this method is neither. Add a ScheduledExecution"
                    + " parameter (Quarkus), or name the slot from an argument such as {timer.nextTimeout}");
        }
        for (Annotation schedule : schedules) {
            calendarOf(schedule, "@Schedule");
        }
        return new FiringSlot(timer, execution, timeout);
    }

    /**
     * @param timer     the timer the interceptor saw ({@code InvocationContext.getTimer()}), or null
     * @param arguments the call's arguments
     * @return the scheduled time of this firing
     * @throws IllegalStateException when the runtime handed no firing time, or the timer is not a calendar timer
     */
    Instant slot(Object timer, Object[] arguments) {
        if (executionParameter >= 0 && arguments[executionParameter] != null) {
            return (Instant) call(arguments[executionParameter], "getScheduledFireTime");
        }
        Object firing = timer != null ? timer : timerParameter >= 0 ? arguments[timerParameter] : null;
        if (firing == null) {
            throw new IllegalStateException("{slot} needs the timer of a timeout call, and this call has none: the"
                    + " method was called directly, not by its timer");
        }
        if (!Boolean.TRUE.equals(call(firing, "isCalendarTimer"))) {
            throw new IllegalStateException("{slot} reads the schedule of a calendar timer, and this is an interval"
                    + " or single-action timer, which has none. Create it with TimerService.createCalendarTimer"
                    + " (or use @Schedule), or name the slot with {timer.nextTimeout}");
        }
        Object schedule = call(firing, "getSchedule");
        Date next = (Date) call(firing, "getNextTimeout");
        return calendarOf(schedule, "the timer's ScheduleExpression").previousBefore(next.toInstant());
    }

    private static CalendarSchedule calendarOf(Object schedule, String what) {
        boolean annotation = schedule instanceof Annotation;
        String[] parts = new String[8];
        String[] names = {"second", "minute", "hour", "dayOfMonth", "month", "dayOfWeek", "year", "timezone"};
        for (int i = 0; i < names.length; i++) {
            String getter = annotation ? names[i] : "get" + Character.toUpperCase(names[i].charAt(0)) + names[i].substring(1);
            Object value = call(schedule, getter);
            parts[i] = value == null ? null : value.toString();
        }
        try {
            return CalendarSchedule.of(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6], parts[7]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
        }
    }

    private static List<Annotation> schedules(Method method) {
        List<Annotation> found = new ArrayList<>();
        for (Annotation annotation : method.getAnnotations()) {
            String type = annotation.annotationType().getName();
            if (type.equals(SCHEDULE)) {
                found.add(annotation);
            } else if (type.equals(SCHEDULES)) {
                for (Object each : (Object[]) call(annotation, "value")) {
                    found.add((Annotation) each);
                }
            }
        }
        return found;
    }

    private static boolean annotated(Method method, String type) {
        for (Annotation annotation : method.getAnnotations()) {
            if (annotation.annotationType().getName().equals(type)) {
                return true;
            }
        }
        return false;
    }

    private static Object call(Object target, String getter) {
        try {
            Method method = target instanceof Annotation annotation
                    ? annotation.annotationType().getMethod(getter) : publicMethod(target.getClass(), getter);
            if (!method.canAccess(target)) {
                method.trySetAccessible();
            }
            return method.invoke(target);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Could not read " + getter + "() of " + target.getClass().getName()
                    + " for {slot}: " + e, e);
        }
    }

    /**
     * The method as a public interface declares it: a container's timer class may be
     * package-private, and a module system may refuse reflection on it.
     */
    private static Method publicMethod(Class<?> type, String name) throws NoSuchMethodException {
        for (Class<?> each = type; each != null; each = each.getSuperclass()) {
            for (Class<?> face : each.getInterfaces()) {
                for (Method method : face.getMethods()) {
                    if (method.getName().equals(name) && method.getParameterCount() == 0) {
                        return method;
                    }
                }
            }
        }
        return type.getMethod(name);
    }
}
