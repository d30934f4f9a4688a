/// What a change run by `WriteLanes.run(growing:_:)` came to: done, or in need of more lanes.
enum LaneOutcome<R> {
    case done(R)
    case needs(WriteClaim)
}

extension LaneOutcome: Sendable where R: Sendable {}
