package dev.jetsink.internal.publish;

import dev.jetsink.internal.config.SubjectTemplate;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.queue.QueuedEntry;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a target's entries go (DESIGN.md "Routing"). A templated {@code SUBJECT} is resolved once, at
 * enqueue, and the result stored with the entry; publishing and the failed store use that stored
 * subject. An entry without one on a templated target — queued before the subject became a
 * template, or replayed without its subject — is resolved from its stored metadata when it is
 * published, never sent to the template's literal text.
 *
 * @param template the target's {@code SUBJECT}
 * @param targetId the target's id, the value of {@code {target}}
 */
public record EntrySubjects(SubjectTemplate template, String targetId) {
    public EntrySubjects {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(targetId, "targetId");
    }

    /** The subject to store with a new entry: present only for a templated target. */
    public Optional<String> toStore(EventMetadata m) {
        return template.hasPlaceholders() ? Optional.of(template.resolve(m.bucket(), m.object(), m.eventName(), targetId)) : Optional.empty();
    }

    /** The subject {@code e} is published on. */
    public String of(QueuedEntry e) {
        Optional<String> stored = e.attributes().subject();
        if (stored.isPresent()) {
            return stored.get();
        }
        return template.hasPlaceholders() ? template.resolve(e.metadata().bucket(), e.metadata().object(), e.metadata().eventName(), targetId) : template.text();
    }
}
