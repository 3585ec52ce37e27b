package dev.jetsink.internal.nats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SubjectMatcherTest {

    @Test
    void literalFilterCapturesOnlyTheSameSubject() {
        assertThat(SubjectMatcher.captures("rustfs.events", "rustfs.events")).isTrue();
        assertThat(SubjectMatcher.captures("rustfs.events", "rustfs.event")).isFalse();
        assertThat(SubjectMatcher.captures("rustfs.events", "rustfs.events.put")).isFalse();
        assertThat(SubjectMatcher.captures("rustfs.events.put", "rustfs.events")).isFalse();
    }

    @Test
    void wildcardStarCapturesExactlyOneToken() {
        assertThat(SubjectMatcher.captures("rustfs.*", "rustfs.events")).isTrue();
        assertThat(SubjectMatcher.captures("rustfs.*.put", "rustfs.events.put")).isTrue();
        assertThat(SubjectMatcher.captures("rustfs.*", "rustfs.events.put")).isFalse();
        assertThat(SubjectMatcher.captures("rustfs.*", "rustfs")).isFalse();
        assertThat(SubjectMatcher.captures("*", "rustfs")).isTrue();
    }

    @Test
    void wildcardGreaterThanCapturesTrailingTokens() {
        assertThat(SubjectMatcher.captures("rustfs.>", "rustfs.events")).isTrue();
        assertThat(SubjectMatcher.captures("rustfs.>", "rustfs.events.put.more")).isTrue();
        assertThat(SubjectMatcher.captures(">", "anything.at.all")).isTrue();
    }

    @Test
    void wildcardGreaterThanNeedsAtLeastOneToken() {
        assertThat(SubjectMatcher.captures("rustfs.>", "rustfs")).isFalse();
    }

    @Test
    void wildcardGreaterThanOnlyCountsAsTheLastToken() {
        assertThat(SubjectMatcher.captures("rustfs.>.put", "rustfs.events.put")).isFalse();
    }

    @Test
    void wildcardsAreNotMatchedInsideTokens() {
        assertThat(SubjectMatcher.captures("rustfs.ev*", "rustfs.events")).isFalse();
        assertThat(SubjectMatcher.captures("rustfs.ev*", "rustfs.ev*")).isTrue();
    }

    @Test
    void emptyTokensNeverMatch() {
        assertThat(SubjectMatcher.captures("rustfs..events", "rustfs..events")).isFalse();
        assertThat(SubjectMatcher.captures("rustfs.>", "rustfs.events.")).isFalse();
        assertThat(SubjectMatcher.captures("rustfs.*", "rustfs.")).isFalse();
    }

    @Test
    void aFilterCoversATemplatesSpaceOnlyWhenItCapturesEverySubjectOfIt() {
        assertThat(SubjectMatcher.covers("rustfs.events.>", "rustfs.events.*.*")).isTrue();
        assertThat(SubjectMatcher.covers("rustfs.events.*.>", "rustfs.events.*.>")).isTrue();
        assertThat(SubjectMatcher.covers("rustfs.*.*", "rustfs.*.*")).isTrue();
        assertThat(SubjectMatcher.covers(">", "a.*")).isTrue();
        assertThat(SubjectMatcher.covers("rustfs.events.photos.>", "rustfs.events.*.>")).isFalse();
        assertThat(SubjectMatcher.covers("rustfs.events.*", "rustfs.events.*.>")).isFalse();
        assertThat(SubjectMatcher.covers("rustfs.events.*.*", "rustfs.events.*.>")).as("> may be longer").isFalse();
        assertThat(SubjectMatcher.covers("rustfs.events", "rustfs.events")).isTrue();
        assertThat(SubjectMatcher.covers("rustfs.events.x", "rustfs.events.*")).isFalse();
    }

    @Test
    void whatAStreamWouldMissIsASubjectNoFilterCaptures() {
        assertThat(SubjectMatcher.missed(java.util.List.of("rustfs.events.>"), "rustfs.events.*.>")).isEmpty();
        assertThat(SubjectMatcher.missed(java.util.List.of("rustfs.events.photos.>"), "rustfs.events.*.>"))
            .contains("rustfs.events.example.example");
        assertThat(SubjectMatcher.missed(java.util.List.of("a.example.>", "a.*.x"), "a.*.>"))
            .as("an example no filter names").contains("a.example2.example2");
        assertThat(SubjectMatcher.missed(java.util.List.of("a.*.*"), "a.*.>")).contains("a.example.example.example");
    }
}
