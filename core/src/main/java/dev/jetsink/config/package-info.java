/**
 * Configuration (SPEC §2). {@link dev.jetsink.config.ConfigKey} and
 * {@link dev.jetsink.config.GlobalSetting} are the declared tables;
 * {@link dev.jetsink.config.TargetVariables} splits variables into instances;
 * {@link dev.jetsink.config.TargetValidator} checks one target (also the admin path);
 * {@link dev.jetsink.config.ConfigLoader} ties file, environment and globals together into a
 * {@link dev.jetsink.config.LoadedConfig}.
 */
package dev.jetsink.config;
