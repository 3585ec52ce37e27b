package dev.jetsink.server.ingest;

import dev.jetsink.testkit.StoredMessage;
import io.cloudevents.CloudEvent;
import io.cloudevents.SpecVersion;
import io.cloudevents.core.data.BytesCloudEventData;
import io.cloudevents.core.message.MessageReader;
import io.cloudevents.core.message.impl.BaseGenericBinaryMessageReaderImpl;
import io.cloudevents.core.message.impl.GenericStructuredMessageReader;
import io.cloudevents.core.message.impl.MessageUtils;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * A NATS message read as a CloudEvent by the CloudEvents Java SDK's own machinery, as a consumer
 * would: structured mode when the content type names an event format the SDK knows, binary mode
 * ({@code ce-} headers, values percent-decoded as the NATS binding writes them) when
 * {@code ce-specversion} is there. Written here for the test, independent of jetsink's code.
 */
final class NatsCloudEvents {
    private NatsCloudEvents() {
    }

    static CloudEvent decode(StoredMessage m) {
        MessageReader reader = MessageUtils.parseStructuredOrBinaryMessage(
            () -> first(m.headers(), "Content-Type"),
            format -> new GenericStructuredMessageReader(format, m.data()),
            () -> first(m.headers(), "ce-specversion"),
            version -> new Binary(version, m));
        return reader.toEvent();
    }

    private static String first(Map<String, List<String>> headers, String name) {
        for (Map.Entry<String, List<String>> h : headers.entrySet()) {
            if (h.getKey().equalsIgnoreCase(name) && !h.getValue().isEmpty()) {
                return h.getValue().get(0);
            }
        }
        return null;
    }

    private static final class Binary extends BaseGenericBinaryMessageReaderImpl<String, String> {
        private final Map<String, List<String>> headers;

        Binary(SpecVersion version, StoredMessage m) {
            super(version, m.data().length == 0 ? null : BytesCloudEventData.wrap(m.data()));
            this.headers = m.headers();
        }

        @Override
        protected boolean isContentTypeHeader(String key) {
            return false; // the binding carries datacontenttype as ce-datacontenttype
        }

        @Override
        protected boolean isCloudEventsHeader(String key) {
            return key.length() > 3 && key.toLowerCase(Locale.ROOT).startsWith("ce-");
        }

        @Override
        protected String toCloudEventsKey(String key) {
            return key.substring(3).toLowerCase(Locale.ROOT);
        }

        @Override
        protected void forEachHeader(BiConsumer<String, String> fn) {
            headers.forEach((name, values) -> fn.accept(name, values.isEmpty() ? null : values.get(0)));
        }

        @Override
        protected String toCloudEventsValue(String value) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == '%' && i + 2 < value.length()) {
                    out.write(Integer.parseInt(value.substring(i + 1, i + 3), 16));
                    i += 2;
                } else {
                    out.write(c);
                }
            }
            return out.toString(StandardCharsets.UTF_8);
        }
    }
}
