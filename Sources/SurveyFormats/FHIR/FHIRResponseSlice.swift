import FHIRPath

/// The top-level items of the response an expression can read, when its syntax says so: every use of
/// `%resource` (or `%rootResource`) picks top-level items by linkId, `%resource.item.where(linkId = '…')`
/// (the comparison alone, or one side of an `and`), and it names neither `%context` nor reads its input.
/// Such an expression gives the same result on the response cut down to the top-level items of those
/// linkIds, with all they hold: the items `where` drops are the only ones cut, and FHIRPath navigates only
/// down from what `where` keeps. The cut response is smaller and, above all, the same for every state of
/// the other answers, so the responses kept by key (`FHIRSurvey.expressionResponses`) are found again.
enum FHIRResponseSlice {
    /// The linkIds, or nil when the expression may read any part of the response.
    static func linkIds(of syntax: FHIRPathSyntax, dependencies: FHIRPathDependencies) -> Set<String>? {
        guard !dependencies.readsInput, !dependencies.variables.contains("context") else { return nil }
        var linkIds: Set<String> = []
        return collect(syntax, &linkIds) ? linkIds : nil
    }

    /// Adds the linkIds the response is read by under `syntax`; false when it is read another way.
    private static func collect(_ syntax: FHIRPathSyntax, _ linkIds: inout Set<String>) -> Bool {
        if let linkId = topLevelLinkId(syntax) {
            linkIds.insert(linkId)
            // The criterion is read on the items themselves; only the response's own root is cut.
            guard case .function(_, _, let arguments) = syntax.kind else { return true }
            return arguments.allSatisfy { collect($0, &linkIds) }
        }
        switch syntax.kind {
        case .constant(let name):
            return name != "resource" && name != "rootResource" && name != "context"
        case .literal, .identifier, .this, .index, .total:
            return true
        case .member(let target, _), .polarity(_, let target), .typeTest(_, let target, _), .parenthesized(let target):
            return collect(target, &linkIds)
        case .function(let target, _, let arguments):
            return (target.map { collect($0, &linkIds) } ?? true) && arguments.allSatisfy { collect($0, &linkIds) }
        case .indexer(let target, let index):
            return collect(target, &linkIds) && collect(index, &linkIds)
        case .binary(_, let left, let right):
            return collect(left, &linkIds) && collect(right, &linkIds)
        }
    }

    /// The linkId of `%resource.item.where(linkId = 'x')` (or `%rootResource`, `'x' = linkId`, a conjunction
    /// holding that comparison), nil for anything else.
    private static func topLevelLinkId(_ syntax: FHIRPathSyntax) -> String? {
        guard case .function(let target?, "where", let arguments) = syntax.kind, arguments.count == 1,
            case .member(let items, "item") = unwrapped(target).kind,
            case .constant(let root) = unwrapped(items).kind, root == "resource" || root == "rootResource"
        else { return nil }
        return linkIdCompared(arguments[0])
    }

    /// `linkId = 'x'`'s literal, looking through parentheses and into either side of `and` (an item whose
    /// linkId differs makes the conjunction false whatever the other side is).
    private static func linkIdCompared(_ criterion: FHIRPathSyntax) -> String? {
        switch unwrapped(criterion).kind {
        case .binary(.and, let left, let right):
            return linkIdCompared(left) ?? linkIdCompared(right)
        case .binary(.equal, let left, let right):
            switch (unwrapped(left).kind, unwrapped(right).kind) {
            case (.identifier("linkId"), .literal(.string(let text))), (.literal(.string(let text)), .identifier("linkId")): return text
            default: return nil
            }
        default:
            return nil
        }
    }

    private static func unwrapped(_ syntax: FHIRPathSyntax) -> FHIRPathSyntax {
        if case .parenthesized(let inner) = syntax.kind { return unwrapped(inner) }
        return syntax
    }
}
