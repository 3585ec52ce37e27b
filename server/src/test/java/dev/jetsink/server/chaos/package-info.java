/**
 * The seeded fault campaign: a nemesis injects faults drawn from one seed into a
 * 3-node cluster, two {@code jetsink serve} daemons behind fault proxies and an in-process sink,
 * while senders post events the way object stores do; a checker then says where every
 * acknowledged event ended up. Run by {@code ChaosCampaignIT} and {@code bin/chaos}.
 */
package dev.jetsink.server.chaos;
