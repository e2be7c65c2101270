import Foundation

/// Waits until `condition` holds, checking every 50 ms, for at most `seconds`: whether it did.
/// The bound keeps a test bounded in time; make it generous, as a loaded machine is slow.
public func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return try condition()
}
