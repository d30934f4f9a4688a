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
        do throws(TimerError) {
            var answer = TimerAnswer()
            answer.at = request.at ?? request.now
            switch request.action {
            case .now:
                answer.running = try actions.running(now: request.now).map(TimerAnswer.Record.init)
            case .start:
                let started = try actions.start(tag: request.tag, comment: request.comment, at: request.at ?? request.now,
                                                keepsRunning: request.keep, now: request.now)
                answer.startedID = started.id
                answer.stopped = started.stopped.map(TimerAnswer.Record.init)
                answer.leftRunning = started.leftRunning.map(TimerAnswer.Record.init)
            case .continue:
                guard let last = try actions.lastStopped(now: request.now) else { throw .noEarlierTimer(actions.backend.placeDescription) }
                let started = try actions.start(tag: nil, tagID: last.tagID, comment: last.comment, at: request.at ?? request.now,
                                                keepsRunning: request.keep, now: request.now)
                answer.continued = TimerAnswer.Record(last)
                answer.startedID = started.id
                answer.stopped = started.stopped.map(TimerAnswer.Record.init)
                answer.leftRunning = started.leftRunning.map(TimerAnswer.Record.init)
            case .stop:
                let stopped = try actions.stop(at: request.at ?? request.now, now: request.now, whenGiven: request.at != nil, id: request.id)
                answer.stopped = stopped.stopped.map(TimerAnswer.Record.init)
                answer.leftRunning = stopped.leftRunning.map(TimerAnswer.Record.init)
            }
            return answer
        } catch {
            return TimerAnswer(error: error)
        }
    }

    /// A request's bytes answered (a request that is not one is answered with an error).
    public static func answer(_ bytes: [UInt8], with actions: TimerActions) -> [UInt8] {
        let answer: TimerAnswer
        if let request = try? JSONDecoder().decode(TimerRequest.self, from: Data(bytes)) {
            answer = perform(request, with: actions)
        } else {
            var refused = TimerAnswer()
            refused.error = "not a timer request: write one JSON object with action (start, stop, continue or now) and now (milliseconds)"
            answer = refused
        }
        return Array((try? JSONEncoder().encode(answer)) ?? Data(#"{"error": "the answer could not be written"}"#.utf8)) + [10]
    }
}
