import MinutaStore
import AutomergeKit

/// The demo store's random numbers: `SplitMix64`, so the same seed gives the same store on every
/// machine and every Swift version.
public typealias DemoRandom = SplitMix64

/// What the demo draws besides numbers.
extension SplitMix64 {
    /// Whether an event of probability `p` happens.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// A version 4 UUID, upper-case as the app writes it.
    mutating func uuid() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &self) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
        let c = Array(hex)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }

    /// Sixteen random bytes: an actor id standing for one of the demo's devices.
    mutating func actorBytes() -> [UInt8] { (0..<16).map { _ in UInt8.random(in: 0...255, using: &self) } }
}
