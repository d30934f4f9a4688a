import Foundation
import MinutaStore

/// What a read-only command (`report`, `log`, `now`, `export`) says on standard error when it read
/// documents merged with conflict copies waiting beside them (SPEC section 9): how many it merged,
/// that nothing was written, and how to merge them into the store; and each copy it could not read.
enum WaitingCopiesNotice {
    /// "merged 1 waiting conflict copy in memory (not written; run `minutafs merge` or mount the store)".
    static func line(merged count: Int) -> String {
        "merged \(count) waiting conflict cop\(count == 1 ? "y" : "ies") in memory (not written; run `minutafs merge` or mount the store)"
    }

    /// The lines for what `store` merged in memory; none when it merged nothing.
    static func lines(_ copies: Store.WaitingCopies) -> [String] {
        (copies.merged.isEmpty ? [] : [line(merged: copies.merged.count)])
            + copies.unreadable.map { "\($0.copy): a waiting conflict copy that could not be read (\($0.reason)); left as it is" }
    }

    /// Prints ``lines(_:)`` of `store` on standard error.
    static func print(for store: Store) {
        for line in lines(store.waitingCopies) {
            FileHandle.standardError.write(Data(TerminalText.escaped(line).utf8 + [10]))
        }
    }
}
