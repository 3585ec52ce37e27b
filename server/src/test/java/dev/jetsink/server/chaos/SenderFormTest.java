package dev.jetsink.server.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventParser;
import dev.jetsink.internal.event.OrderKeys;
import dev.jetsink.internal.event.OutboundEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The campaign's request shapes are what the order checker assumes: jetsink parses every body, files
 * each event under the object {@link SenderForm#objectKey} names (the key {@code ORDER=key} orders
 * by), finds each token once, and sees each object's events alternate put and delete.
 */
class SenderFormTest {

    private static final int SENDER = 4;

    @Test
    void everyFormsEventsAreFiledUnderTheRequestsObjectAndAlternatePutAndDelete() throws Exception {
        for (SenderForm form : SenderForm.values()) {
            TargetKind kind = form == SenderForm.MINIO_AUDIT_BATCH ? TargetKind.AUDIT : TargetKind.NOTIFY;
            Map<String, List<String>> namesByKey = new HashMap<>();
            for (long seq = 0; seq < 3L * SenderForm.KEYS; seq++) {
                List<String> tokens = form.tokens(SENDER, seq);
                byte[] body = form.body(SENDER, seq, tokens).getBytes(StandardCharsets.UTF_8);
                List<OutboundEvent> events = EventParser.forKind(kind).parse(body);
                // the event's name: the notify record's, or the audit entry's API
                List<String> names = kind == TargetKind.NOTIFY
                    ? events.stream().map(e -> e.metadata().eventName()).toList()
                    : EventParser.entries(body).stream().map(a -> a.apiName().orElse("")).toList();

                assertThat(events).as(form + " request " + seq).hasSize(form.perRequest);
                assertThat(Checker.tokens(body)).as(form + " request " + seq).containsExactlyInAnyOrderElementsOf(tokens);
                for (int i = 0; i < events.size(); i++) {
                    OutboundEvent e = events.get(i);
                    assertThat(Checker.tokens(e.payload())).as(form + " event " + i + " of request " + seq)
                        .containsExactly(tokens.get(i));
                    String key = OrderKeys.of(e);
                    assertThat(key).as(form + " request " + seq)
                        .isEqualTo("photos/" + SenderForm.objectKey(Integer.toString(SENDER), seq));
                    namesByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(names.get(i));
                }
            }
            assertThat(namesByKey).as(form.name()).hasSize(SenderForm.KEYS);
            namesByKey.forEach((key, names) -> {
                assertThat(names).as(form + " " + key).hasSize(3 * form.perRequest);
                for (int n = 0; n < names.size(); n++) {
                    assertThat(names.get(n)).as(form + " " + key + " event " + n).contains(n % 2 == 0 ? "Put" : "Delete");
                }
            });
        }
    }

    @Test
    void minioFormEncodesTheKeyAndCephSendsItRaw() {
        String minio = SenderForm.MINIO_NOTIFY.body(0, 3, SenderForm.MINIO_NOTIFY.tokens(0, 3));
        assertThat(minio).contains("\"key\":\"chaos%2Fs0-k3.jpg\"").contains("\"Key\":\"photos/chaos/s0-k3.jpg\"");

        String ceph = SenderForm.CEPH_NOTIFY.body(1, 3, SenderForm.CEPH_NOTIFY.tokens(1, 3));
        assertThat(ceph).contains("\"key\":\"chaos/s1-k3.jpg\"");
    }
}
