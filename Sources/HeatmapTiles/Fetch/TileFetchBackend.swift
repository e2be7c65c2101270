import HeatmapKit

/// The fetch backend of the command's URL layers: libcurl where it is linked (Linux, where
/// FoundationNetworking's URLSession is not safe to cancel), else `nil` for URLSession.
package enum TileFetchBackend {
    /// The backend to hand ``URLTileLayer``, `nil` for its own URLSession.
    package static var shared: (any TileFetching)? {
        #if canImport(CCurl)
            CurlTileFetcher.shared
        #else
            nil
        #endif
    }
}
