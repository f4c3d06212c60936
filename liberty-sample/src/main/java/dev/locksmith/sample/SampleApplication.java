package dev.locksmith.sample;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * The sample's REST API, under {@code /api}: stock levels, reservations, the bank's fenced
 * transfers ({@code /api/bank}), and the server's own description ({@code /api/info}). Health is MicroProfile Health's, under {@code /health}.
 */
@ApplicationPath("/api")
public class SampleApplication extends Application {
}
