/**
 * Configuration (DESIGN.md "Configuration"). {@link dev.jetsink.internal.config.ConfigKey} and
 * {@link dev.jetsink.internal.config.GlobalSetting} are the declared tables;
 * {@link dev.jetsink.internal.config.TargetVariables} splits variables into instances;
 * {@link dev.jetsink.internal.config.TargetValidator} checks one target (also the admin path);
 * {@link dev.jetsink.internal.config.ConfigLoader} ties file, environment and globals together into a
 * {@link dev.jetsink.internal.config.LoadedConfig}.
 */
package dev.jetsink.internal.config;
