import HeatmapKit

/// The HTTP tile server (placeholder until the server lands).
public enum HeatmapServerInfo {
    /// The server's name in `Server` headers.
    public static let name = "HeatmapKit"
}
