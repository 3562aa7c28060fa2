package dev.rein.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.TypeRef;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What OutputSchema and BeanNames work out per type (whether an answer is checked, whether its schema never ends, what
 * its schema leaves unnamed) is remembered per type, asked by many readers at once, with no lock over all types. This
 * replaces OutputSchema.checkedWalks, a counter for tests in production code.
 */
class TypeMemoTest {
    @Test
    void eachTypeIsComputedOnceAndANullValueIsRememberedToo() {
        Map<Type, AtomicInteger> calls = new ConcurrentHashMap<>();
        TypeMemo<String> memo = new TypeMemo<>(16, t -> {
            calls.computeIfAbsent(t, k -> new AtomicInteger()).incrementAndGet();
            return t == String.class ? null : t.getTypeName();
        });
        Type list = new TypeRef<List<Integer>>() {}.type();
        for (int i = 0; i < 5; i++) {
            assertThat(memo.get(Integer.class)).isEqualTo("java.lang.Integer");
            assertThat(memo.get(String.class)).isNull();
            assertThat(memo.get(list)).isEqualTo("java.util.List<java.lang.Integer>");
            assertThat(memo.get(new TypeRef<List<Integer>>() {}.type())).as("an equal type built again").isNotNull();
        }
        assertThat(calls.values()).extracting(AtomicInteger::get).containsOnly(1);
    }

    @Test
    void typesThatAreNoClassesAreHeldUpToTheCapacity() throws Exception {
        TypeMemo<String> memo = new TypeMemo<>(4, Type::getTypeName);
        List<Type> types = List.of(new TypeRef<List<Integer>>() {}.type(), new TypeRef<List<String>>() {}.type(),
                new TypeRef<List<Long>>() {}.type(), new TypeRef<List<Short>>() {}.type(), new TypeRef<List<Byte>>() {}.type(),
                new TypeRef<List<Double>>() {}.type());
        types.forEach(memo::get);
        var field = TypeMemo.class.getDeclaredField("byType");
        field.setAccessible(true);
        assertThat(((Map<?, ?>) field.get(memo)).size()).isLessThanOrEqualTo(4);
        assertThat(memo.get(types.get(0))).isEqualTo("java.util.List<java.lang.Integer>");
    }

    @Test
    void manyReadersOfOneTypeComputeItOnce() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        TypeMemo<Integer> memo = new TypeMemo<>(16, t -> calls.incrementAndGet());
        Type type = new TypeRef<Map<String, List<Integer>>>() {}.type();
        try (var pool = Executors.newFixedThreadPool(8)) {
            List<java.util.concurrent.Future<Integer>> got = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                got.add(pool.submit(() -> {
                    start.await();
                    return memo.get(type);
                }));
            }
            start.countDown();
            for (var f : got) {
                assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            }
        }
        assertThat(calls.get()).isEqualTo(1);
    }

    /** The walk that every per-type answer comes from follows a Map.Entry to its value, as Jackson reads it. */
    @Test
    void theWalkFollowsContainersAndEntriesToTheClassesInside() {
        record Inner(int n) {}
        Type type = new TypeRef<List<Map.Entry<String, java.util.Optional<Inner>>>>() {}.type();
        List<String> entered = new ArrayList<>();
        Object found = TypeWalk.walk(dev.rein.internal.json.JavaNames.type(type), new TypeWalk.Visitor<Object>() {
            @Override
            public Object enter(com.fasterxml.jackson.databind.JavaType t, List<com.fasterxml.jackson.databind.JavaType> path) {
                entered.add(t.getRawClass().getSimpleName());
                return null;
            }
        });
        assertThat(found).isNull();
        assertThat(entered).containsExactly("Inner");
    }
}
