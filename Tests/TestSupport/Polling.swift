import Foundation

/// Polls `condition` every `interval` seconds until it holds or `seconds` have passed: true as soon
/// as it holds, false when the deadline passed without it (it is checked once more at the deadline).
///
/// The one way tests wait for something another thread or process does: a deadline far beyond the
/// expected time, never a fixed sleep, so a slow machine makes a test slower, not wrong.
public func eventually(within seconds: Double, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    }
    return try condition()
}

/// `eventually`'s result, or `nil` while `value` is nil: polls until `value` gives one.
public func eventuallyValue<Value>(within seconds: Double, every interval: Double = 0.02, _ value: () throws -> Value?) rethrows -> Value? {
    var result: Value?
    _ = try eventually(within: seconds, every: interval) {
        result = try value()
        return result != nil
    }
    return result
}
