package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * What the jobs move between operators is serialised by Flink's POJO serialiser (field by field, with each field's
 * own serialiser: a long as 8 bytes, a byte array as its length and bytes), not by the Kryo fallback, which writes
 * each object's class and reflects; and the job environment refuses a type that would fall back to Kryo.
 */
class JobTypesTest {
    @Test
    void theMovedTypesArePojosAndGenericTypesAreRefused() {
        for (Class<?> moved : List.of(OutcomeChunk.class, Piece.class, LiveOutcome.class, LiveNote.class)) {
            TypeInformation<?> type = TypeInformation.of(moved);
            assertThat(type).as(moved.getSimpleName()).isInstanceOf(PojoTypeInfo.class);
            assertThat(type.createSerializer(new SerializerConfigImpl())
                            .getClass()
                            .getSimpleName())
                    .as(moved.getSimpleName())
                    .isEqualTo("PojoSerializer");
        }
        StreamExecutionEnvironment env = JobEnvironment.batch(1);
        // a class without a public no-argument constructor is not a POJO: Flink would serialise it with Kryo
        assertThatThrownBy(() -> env.fromData(new NotAPojo(1), new NotAPojo(2)).map(n -> n.value))
                .hasMessageContaining("Generic types have been disabled");
    }

    static final class NotAPojo {
        final int value;

        NotAPojo(int value) {
            this.value = value;
        }
    }
}
