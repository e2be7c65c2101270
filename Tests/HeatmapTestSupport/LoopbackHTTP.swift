import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTP GETs through URLSession against the servers the tests start on loopback.
public enum LoopbackHTTP {
    /// An answer: its status (0 when none came), its `ETag` (empty when none) and its body.
    public struct Answer: Sendable {
        /// The status code, 0 when no answer came.
        public var status: Int
        /// The `ETag` field, empty when none.
        public var etag: String
        /// The body.
        public var body: [UInt8]
        /// The body as UTF-8.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// GET `url`, at most `timeout` seconds.
    ///
    /// - Throws: `URLError` when `url` is not a URL or the request fails.
    public static func get(_ url: String, timeout: Double = 60) async throws -> Answer {
        let (data, response) = try await URLSession.shared.data(for: request(url, timeout: timeout))
        return answer(data, response)
    }

    /// GET `url` from a synchronous test, at most `timeout` seconds: status 0 and no body when
    /// no answer came.
    ///
    /// - Throws: `URLError` when `url` is not a URL.
    public static func getWaiting(_ url: String, timeout: Double = 60) throws -> Answer {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex(Answer(status: 0, etag: "", body: []))
        URLSession.shared.dataTask(with: try request(url, timeout: timeout)) { data, response, _ in
            result.withLock { $0 = answer(data ?? Data(), response) }
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + timeout + 5)
        return result.withLock { $0 }
    }

    private static func request(_ url: String, timeout: Double) throws -> URLRequest {
        guard let address = URL(string: url) else { throw URLError(.badURL) }
        var request = URLRequest(url: address)
        request.timeoutInterval = timeout
        return request
    }

    private static func answer(_ data: Data, _ response: URLResponse?) -> Answer {
        let http = response as? HTTPURLResponse
        return Answer(
            status: http?.statusCode ?? 0, etag: http?.value(forHTTPHeaderField: "ETag") ?? "", body: [UInt8](data))
    }
}
