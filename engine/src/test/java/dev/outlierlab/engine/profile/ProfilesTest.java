package dev.outlierlab.engine.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProfilesTest {
    /** A facet kind only the first part has. */
    interface Words {
        String word();
    }

    /** A facet kind only the second part has. */
    interface Numbers {
        int number();
    }

    public static final class FirstPart implements Profile, Words {
        @Override
        public String name() {
            return "twin";
        }

        @Override
        public int rank() {
            return 5;
        }

        @Override
        public Set<Capability> capabilities() {
            return Set.of(Capability.TRACE_REPLAY);
        }

        @Override
        public String word() {
            return "one";
        }
    }

    public static final class SecondPart implements Profile, Numbers {
        @Override
        public String name() {
            return "twin";
        }

        @Override
        public Set<Capability> capabilities() {
            return Set.of(Capability.HEALTH_CHECKS);
        }

        @Override
        public int number() {
            return 2;
        }
    }

    public static final class Other implements Profile, Words {
        @Override
        public String name() {
            return "other";
        }

        @Override
        public String word() {
            return "other";
        }
    }

    @Test
    void joinsTheParts_ofOneName_andOrdersByRank() {
        assertThat(Profiles.all()).extracting(Profile::name).containsExactly("twin", "other");
        Profiles.Registered twin = Profiles.find("twin").orElseThrow();
        assertThat(twin.facet(Words.class).orElseThrow().word()).isEqualTo("one");
        assertThat(twin.facet(Numbers.class).orElseThrow().number()).isEqualTo(2);
        assertThat(twin.capabilities()).containsExactlyInAnyOrder(Capability.TRACE_REPLAY, Capability.HEALTH_CHECKS);
        assertThat(twin.rank()).isEqualTo(5);
    }

    @Test
    void refusesAName_withTheProfilesThatHaveTheFacet() {
        assertThat(Profiles.namesWith(Words.class)).isEqualTo("twin or other");
        assertThat(Profiles.namesWith(Numbers.class)).isEqualTo("twin");
        assertThatThrownBy(() -> Profiles.facet("other", Numbers.class, IllegalArgumentException::new))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("twin");
        assertThatThrownBy(() -> Profiles.facet(
                        "nginx", Words.class, names -> new IllegalArgumentException("expected " + names)))
                .hasMessage("expected twin or other");
        assertThat(Profiles.namesThatCan(Capability.HEALTH_CHECKS)).isEqualTo("twin");
        assertThat(Profiles.orList(List.of("a", "b", "c"))).isEqualTo("a, b or c");
    }
}
