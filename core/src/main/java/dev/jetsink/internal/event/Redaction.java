package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Replaces credentials in an audit entry with {@code ***} before the entry is queued, so they
 * never reach disk, the failed store or a NATS consumer. Header names match case-insensitively
 * (HTTP header names are case-insensitive, and stores differ in how they spell them).
 */
public final class Redaction {
    static final String MASK = "***";

    /** Credential-bearing headers, lower-cased; checked in requestHeader and responseHeader. */
    private static final Set<String> HEADERS =
            Set.of("authorization", "proxy-authorization", "x-amz-security-token", "cookie", "set-cookie");

    /** Query parameters of presigned URLs that carry a credential (requestQuery). */
    private static final Set<String> QUERY = Set.of("x-amz-security-token", "x-amz-signature");

    private Redaction() {
    }

    /** Masks credentials in place; {@code entry} has already been type-checked. */
    public static void apply(ObjectNode entry) {
        mask(entry.get("requestHeader"), HEADERS);
        mask(entry.get("responseHeader"), HEADERS);
        mask(entry.get("requestQuery"), QUERY);
    }

    /** Whether a {@code requestHeader} or {@code responseHeader} member of this name is masked. */
    static boolean masksHeader(String name) {
        return HEADERS.contains(name.toLowerCase(Locale.ROOT));
    }

    /** Whether a {@code requestQuery} member of this name is masked. */
    static boolean masksQuery(String name) {
        return QUERY.contains(name.toLowerCase(Locale.ROOT));
    }

    private static void mask(Object node, Set<String> names) {
        if (!(node instanceof ObjectNode object)) {
            return;
        }
        // Collect first: replacing values while iterating the field names is not safe.
        List<String> hits = new ArrayList<>();
        object.fieldNames().forEachRemaining(name -> {
            if (names.contains(name.toLowerCase(Locale.ROOT))) {
                hits.add(name);
            }
        });
        hits.forEach(name -> object.put(name, MASK));
    }
}
