//! Prometheus metrics (`GET /metrics`): tables, connections, actions,
//! rejections and action round-trip latency inside the server.

use std::sync::Arc;

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// The server's metrics (one registry per server, no globals).
#[derive(Clone)]
pub struct Metrics {
    registry: Arc<Registry>,
    /// Tables in memory.
    pub tables: Gauge,
    /// Open WebSocket connections.
    pub connections: Gauge,
    /// Game actions accepted (humans and bots).
    pub actions: Counter,
    /// Requests rejected.
    pub rejections: Counter,
    /// Messages received.
    pub messages: Counter,
    /// Seconds from receiving an action to sending its acknowledgement.
    pub action_seconds: Histogram,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// Fresh metrics.
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("romme");
        let tables = Gauge::default();
        let connections = Gauge::default();
        let actions = Counter::default();
        let rejections = Counter::default();
        let messages = Counter::default();
        let action_seconds = Histogram::new(exponential_buckets(0.0001, 2.0, 16));
        registry.register("tables", "Tables in memory", tables.clone());
        registry.register(
            "connections",
            "Open WebSocket connections",
            connections.clone(),
        );
        registry.register("actions", "Game actions accepted", actions.clone());
        registry.register("rejections", "Requests rejected", rejections.clone());
        registry.register("messages", "WebSocket messages received", messages.clone());
        registry.register(
            "action_seconds",
            "Seconds from receiving an action to its acknowledgement",
            action_seconds.clone(),
        );
        Metrics {
            registry: Arc::new(registry),
            tables,
            connections,
            actions,
            rejections,
            messages,
            action_seconds,
        }
    }

    /// The text exposition format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        if encode(&mut out, &self.registry).is_err() {
            out.clear();
        }
        out
    }
}
