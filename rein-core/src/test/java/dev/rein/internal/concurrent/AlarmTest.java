package dev.rein.internal.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AlarmTest {
    @Test
    void anAlarmDueBeforeTheOneTheThreadSleepsForIsDeliveredOnTime() throws Exception {
        // The alarm thread sleeps until the earliest alarm it knows of; one armed later but due
        // sooner must wake it, or it would only go off after the first one's hour.
        CountDownLatch late = new CountDownLatch(1);
        Alarm hour = Alarm.after(Duration.ofHours(1), late::countDown);
        CountDownLatch soon = new CountDownLatch(1);
        Alarm.after(Duration.ofMillis(20), soon::countDown);
        assertThat(soon.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(hour.disarm()).isFalse();
        assertThat(late.getCount()).isEqualTo(1);
    }

    @Test
    void aDisarmedAlarmNeverGoesOffAndSaysSo() throws Exception {
        AtomicInteger fired = new AtomicInteger();
        // A limit no pause of a loaded machine between arming and disarming comes near.
        Alarm alarm = Alarm.after(Duration.ofSeconds(1), fired::incrementAndGet);
        assertThat(alarm.disarm()).isFalse();
        Thread.sleep(1_500);
        assertThat(fired).hasValue(0);
    }

    @Test
    void anAlarmThatWentOffSaysSoWhenDisarmed() throws Exception {
        CountDownLatch fired = new CountDownLatch(1);
        Alarm alarm = Alarm.after(Duration.ZERO, fired::countDown);
        assertThat(fired.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(alarm.disarm()).isTrue();
    }

    @Test
    void manyAlarmsArmedAtOnceGoOffEachOnceAndOnlyTheUndisarmedOnes() throws Exception {
        int n = 2_000;
        AtomicInteger fired = new AtomicInteger();
        CountDownLatch due = new CountDownLatch(n / 2);
        List<Alarm> alarms = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            alarms.add(Alarm.after(Duration.ofMillis(i % 2 == 0 ? 50 + i % 7 : 60_000), () -> {
                fired.incrementAndGet();
                due.countDown();
            }));
        }
        for (int i = 1; i < n; i += 2) {
            assertThat(alarms.get(i).disarm()).isFalse();
        }
        assertThat(due.await(30, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(100);
        assertThat(fired).hasValue(n / 2);
    }
}
