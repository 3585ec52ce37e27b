/**
 * Configuration (DESIGN.md "Configuration"). {@link dev.jetsink.internal.config.ConfigKey} and
 * {@link dev.jetsink.internal.config.GlobalSetting} are the declared tables;
 * {@link dev.jetsink.internal.config.TargetVariables} splits variables into instances, whose
 * values {@code TargetInput} reads into typed {@link dev.jetsink.internal.config.TargetSettings}
 * (the library's builder makes the same type from its setters);
 * {@link dev.jetsink.internal.config.TargetValidator} checks one target's settings (also the admin
 * path), naming each problem in the terms of whoever gave the value;
 * {@link dev.jetsink.internal.config.ConfigLoader} ties file, environment and globals together into a
 * {@link dev.jetsink.internal.config.LoadedConfig}.
 */
package dev.jetsink.internal.config;
