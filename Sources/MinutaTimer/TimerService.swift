import Foundation
import MinutaStore

/// Carries out a `TimerRequest` with `TimerActions` (the same code with and without a mount) and
/// answers with a `TimerAnswer`; as bytes for a mount's `.minutafs/timer`.
public enum TimerService {
    /// A request without `at` is carried out at the clock of when it is carried out (never before the
    /// command's): of two starts handed over at once, the one carried out second starts second.
    public static func perform(_ request: TimerRequest, with actions: TimerActions) -> TimerAnswer {
        var request = request
        request.now = max(request.now, Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
        var answer = TimerAnswer()
        // The documents the action writes are noted, so that `undo` finds its changes in their history.
        let history = actions.backend as? StoreTimerBackend
        history?.beginAction()
        do throws(TimerError) {
            answer.at = request.at ?? request.now
            switch request.action {
            case .now:
                answer.running = try actions.running(now: request.now).map(TimerAnswer.Record.init)
            case .start:
                try start(request, with: actions, into: &answer)
            case .continue:
                guard let last = try actions.lastStopped(now: request.now) else { throw .noEarlierTimer(actions.backend.placeDescription) }
                let started = try actions.start(tag: nil, tagID: last.tagID, comment: last.comment, at: request.at ?? request.now,
                                                keepsRunning: request.keep, now: request.now)
                answer.continued = TimerAnswer.Record(last)
                note(started, in: &answer)
            case .cancel:
                let removed = try actions.cancel(id: request.id, now: request.now)
                answer.removed = TimerAnswer.Record(removed)
            case .track:
                try track(request, with: actions, into: &answer)
            case .annotate:
                let before = try actions.annotate(request.comment ?? "", now: request.now)
                answer.annotated = TimerAnswer.Record(before)
            case .undo:
                let undone = try actions.undo(request.documents, now: request.now)
                answer.lines = undone.lines
                answer.left = undone.left
            case .stop:
                let stopped = try actions.stop(at: request.at ?? request.now, now: request.now, whenGiven: request.at != nil, id: request.id)
                answer.stopped = stopped.stopped.map(TimerAnswer.Record.init)
                answer.leftRunning = stopped.leftRunning.map(TimerAnswer.Record.init)
            }
            answer.documents = history?.actionHeads() ?? []
            return answer
        } catch {
            // What was changed before the failure (a tag created) is kept, so `undo` can set it back.
            var failed = TimerAnswer(error: error)
            failed.createdTag = answer.createdTag
            failed.documents = history?.actionHeads() ?? []
            return failed
        }
    }

    /// `start`: room made among ended records (refused before anything is written, unless `adjust`
    /// trims them, or `keep` allows timers side by side), the tag chosen (created when unknown), the
    /// timer started; every change noted in `answer` as it is made.
    static func start(_ request: TimerRequest, with actions: TimerActions, into answer: inout TimerAnswer) throws(TimerError) {
        let start = request.at ?? request.now
        func makeRoom() throws(TimerError) -> [String] {
            try actions.makeRoom(start: start, end: request.now, now: request.now, includesRunning: false, adjusting: request.adjust)
        }
        // --keep asks for timers side by side: overlaps are then wanted, unless --adjust is given too.
        var adjustments = request.adjust || request.keep ? [] : try makeRoom()
        let chosen = try request.tag.map { query throws(TimerError) in try actions.chooseTag(query, allowsArchived: request.archived) }
        answer.tagName = chosen?.name
        answer.createdTag = chosen?.createdLine
        if request.adjust {
            adjustments = try makeRoom()
        }
        answer.adjustments = adjustments
        let started = try actions.start(tag: nil, tagID: chosen?.id, comment: request.comment, at: start,
                                        keepsRunning: request.keep, now: request.now)
        note(started, in: &answer)
    }

    /// `track`: the interval `at..<end` refused when it overlaps a record (before a tag is created),
    /// unless `adjust`; the tag chosen or created; the record written.
    static func track(_ request: TimerRequest, with actions: TimerActions, into answer: inout TimerAnswer) throws(TimerError) {
        guard let start = request.at, let end = request.end else {
            throw .storeFailed(file: ".minutafs/timer", reason: "a track request needs at and end")
        }
        if !request.adjust {
            _ = try actions.makeRoom(start: start, end: end, now: request.now, includesRunning: true, adjusting: false)
        }
        let chosen = try request.tag.map { query throws(TimerError) in try actions.chooseTag(query, allowsArchived: request.archived) }
        answer.tagName = chosen?.name
        answer.createdTag = chosen?.createdLine
        let tracked = try actions.track(start: start, end: end, tagID: chosen?.id, comment: request.comment, adjusting: request.adjust,
                                        now: request.now)
        answer.startedID = tracked.id
        answer.startedMonth = tracked.month.yearSlashMonth
        answer.adjustments = tracked.adjustments
    }

    /// A timer started: its id and month, the timers it stopped (as they were) and left running.
    static func note(_ started: TimerActions.Started, in answer: inout TimerAnswer) {
        answer.startedID = started.id
        answer.startedMonth = started.month.yearSlashMonth
        answer.stopped = started.stopped.map(TimerAnswer.Record.init)
        answer.leftRunning = started.leftRunning.map(TimerAnswer.Record.init)
    }

    /// A request's bytes answered (a request that is not one is answered with an error).
    public static func answer(_ bytes: [UInt8], with actions: TimerActions) -> [UInt8] {
        let answer: TimerAnswer
        if let request = try? JSONDecoder().decode(TimerRequest.self, from: Data(bytes)) {
            answer = perform(request, with: actions)
        } else {
            var refused = TimerAnswer()
            refused.error = "not a timer request: write one JSON object with action (start, stop, continue, now, cancel, track, annotate or undo) and now (milliseconds)"
            answer = refused
        }
        return Array((try? JSONEncoder().encode(answer)) ?? Data(#"{"error": "the answer could not be written"}"#.utf8)) + [10]
    }
}
