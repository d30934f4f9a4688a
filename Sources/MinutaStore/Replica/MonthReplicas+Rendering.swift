import AutomergeKit

/// Rendering a month's view with `state` released (`Replica/MonthRendering.swift` does the work): its
/// inputs are copied out of `state` in one short hold (the document, the change times, the holder index
/// and the documents of the months that may hold the same records: all copied on write, so nothing is
/// copied for real), the view is rendered with no lock of the store held, and it is kept in another
/// short hold only if nothing it was rendered from changed meanwhile (the month's document, those
/// months' documents, the holder index); change times noted meanwhile are taken again as it is kept.
/// When a record's other copy is in a month not decoded, nothing is rendered: `monthView` renders
/// under `state`, loading that month (the bounded exception, docs/ARCHITECTURE.md, "Locks").
///
/// Readers render through ``renderWithoutState(_:)`` (from `prepareToRender`, under the month's own
/// render lock); a change of a month renders its checked-out document through
/// ``renderCheckedOut(_:of:noting:)`` before its check-in, which keeps the view with the document.
extension MonthReplicas {
    /// What a render without `state` was rendered from, to tell whether its view is still current.
    struct RenderInputs: Sendable {
        let rendering: MonthRendering
        let version: DocumentVersion
        let holders: RecordHolderIndex?
        let holderIndexChanges: Int
        /// The change times' count in `state` when copied (before any change the render anticipated).
        let changeCount: Int
        let others: [Month: Document]
    }

    /// A view rendered without `state`, with what it was rendered from.
    struct RenderedWithoutState: Sendable {
        let inputs: RenderInputs
        let rendered: MonthRendering.Rendered
    }

    /// Renders the view of `month`, held decoded without a current view, with `state` released, under
    /// the month's own render lock (`Registry/MonthRenderLocks.swift`), and keeps it if it is current.
    func renderWithoutState(_ month: Month) {
        renderLocks.withLock(of: month) {
            let inputs: RenderInputs? = withState { state in
                guard let loaded = state.months[month], loaded.view == nil else { return nil }
                return renderInputs(of: loaded, month, in: state)
            }
            guard let inputs, let rendered = render(inputs, as: month) else { return }
            renderObserver?(month)
            withState { state in
                guard var loaded = state.months[month], loaded.view == nil,
                      let kept = current(rendered, of: loaded, inputs: inputs, in: state) else { return }
                keep(kept, as: &loaded, of: month, in: &state)
            }
        }
    }

    /// Renders the view of `loaded`, a month's document checked out for a change, with `state` released,
    /// as it will be once its check-in notes `changes` (record, seconds); nil when it cannot be rendered
    /// so (the check-in's `monthView` then renders it). The change owns the document, so no lock is
    /// needed around it; the check-in keeps the view with ``keepIfCurrent(_:as:of:in:)``.
    func renderCheckedOut(_ loaded: LoadedDocument, of month: Month, noting changes: [(id: RecordID, at: Int)]) -> RenderedWithoutState? {
        guard loaded.view == nil else { return nil }
        let inputs: RenderInputs? = withState { state in renderInputs(of: loaded, month, in: state, anticipating: changes) }
        guard let inputs, let rendered = render(inputs, as: month) else { return nil }
        return RenderedWithoutState(inputs: inputs, rendered: rendered)
    }

    /// At a check-in, before its bookkeeping: keeps a view `renderCheckedOut` rendered of the document
    /// being checked in (`loaded`) if nothing it was rendered from changed meanwhile. The check-in then
    /// notes the changes the render anticipated, and `monthView` finds the view current.
    func keepIfCurrent(_ rendered: RenderedWithoutState?, as loaded: inout LoadedDocument, of month: Month, in state: inout State) {
        guard let rendered, loaded.view == nil, state.recentChanges.changeCount == rendered.inputs.changeCount,
              let kept = current(rendered.rendered, of: loaded, inputs: rendered.inputs, in: state) else { return }
        keep(kept, as: &loaded, of: month, in: &state)
    }

    /// The inputs of a render of `loaded` as `month`'s document; nil when the holder index is neither
    /// built nor being built (a command's first render: `monthView` builds it). While a mount builds it on
    /// another thread, a render goes without it, as `monthView` would; the index's first update then
    /// drops the views whose shown records it changes (``refreshRecordHolders(in:maximumAge:scan:)``).
    /// The render takes the change times with `changes` noted (a check-in's, rendered before it).
    private func renderInputs(
        of loaded: LoadedDocument, _ month: Month, in state: State, anticipating changes: [(id: RecordID, at: Int)] = []
    ) -> RenderInputs? {
        guard !indexesRecordHolders || state.recordHolders.lastUpdate != nil || state.recordHolders.isBeingBuilt else { return nil }
        var others: [Month: Document] = [:]
        for other in state.recordHolders.monthsSharingRecords(with: month) where other != month {
            if let held = state.months[other] { others[other] = held.document }
        }
        var changeTimes = state.recentChanges
        for change in changes { changeTimes.noteChange(of: change.id, at: change.at) }
        return RenderInputs(rendering: rendering(of: loaded, changeTimes: changeTimes), version: DocumentVersion(of: loaded.document),
                            holders: holderIndex(in: state), holderIndexChanges: state.holderIndexChanges,
                            changeCount: state.recentChanges.changeCount, others: others)
    }

    /// The view of `inputs`, nil when a month holding another copy of a record is not among them.
    private func render(_ inputs: RenderInputs, as month: Month) -> MonthRendering.Rendered? {
        inputs.rendering.render { (record) -> MonthRendering.CopyPlace in
            inputs.rendering.placeCopy(of: record, in: month, holders: inputs.holders) { (other) -> MonthRendering.OtherDocument in
                inputs.others[other].map { .document($0) } ?? .notAtHand
            }
        }
    }

    /// `rendered` if it is still the view of `loaded` in `state` (change times noted since taken again);
    /// nil when the document, a month it looked into or the holder index changed since `inputs`.
    private func current(
        _ rendered: MonthRendering.Rendered, of loaded: LoadedDocument, inputs: RenderInputs, in state: State
    ) -> MonthRendering.Rendered? {
        guard DocumentVersion(of: loaded.document) == inputs.version, state.holderIndexChanges == inputs.holderIndexChanges,
              inputs.others.allSatisfy({ other in
                  state.months[other.key].map { DocumentVersion(of: $0.document) } == DocumentVersion(of: other.value)
              }) else { return nil }
        guard state.recentChanges.changeCount != inputs.changeCount else { return rendered }
        guard let view = rendered.view.edited(changedRecords: [], in: loaded.document, fileTime: inputs.rendering.fileTime,
                                              recentChanges: state.recentChanges) else { return nil }
        return MonthRendering.Rendered(view: view, hidden: rendered.hidden, showsWholeDocument: rendered.showsWholeDocument)
    }
}
