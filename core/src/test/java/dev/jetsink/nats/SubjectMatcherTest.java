package dev.jetsink.nats;

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
}
