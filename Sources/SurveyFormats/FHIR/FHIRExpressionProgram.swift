import FHIRPath
import SurveyCore

/// The SDC expressions of a Questionnaire worked out once per reading, before any session: each one's
/// variables resolved by SDC's scoping (SDC IG "variable": a variable on an item is in scope for the
/// expressions of that item and its descendants; one on the Questionnaire for all), the items whose answers
/// it reads, an evaluation order in which what an expression reads is computed before it, and the cycles
/// that make such an order impossible. Sessions evaluate from it; lint reports from it.
struct FHIRExpressionProgram: Sendable {
    /// One expression: on an item (`item`), or on the Questionnaire itself (nil). A class, so that a pass
    /// reads a node's parts where they are rather than copying them out with a retain each.
    final class Node: Sendable {
        let item: Int?
        let expression: FHIR.SDCExpression
        /// What it reads, from its syntax (nil when it does not compile).
        let dependencies: FHIRPathDependencies?
        /// The variable nodes its `%names` resolve to.
        let variables: [String: Int]
        /// The same, in name order: the order its evaluations list them in (each name's tag worked out here,
        /// once, rather than at every evaluation).
        let variableList: [(name: FHIRPathVariableName, node: Int)]
        /// The `%names` it uses that nothing defines where it stands: no variable in scope, no launch
        /// context, no name the engines bind.
        let unresolved: [String]
        /// The items whose answers it reads: those its `linkId = '…'` comparisons name.
        let reads: [Int]
        /// Whether it reads answers without naming their linkIds (`%resource.item.answer`): any change counts.
        let readsAnyAnswer: Bool
        /// The linkIds it compares that no item has.
        let unknownLinkIds: [String]
        /// Whether evaluating it needs the response: it names `%resource`, `%rootResource` or `%context`, or
        /// reads its input (the instance's response item). One that does not gives the same result without it.
        let readsResponse: Bool
        /// The linkIds of the top-level response items it reads when its syntax names them all
        /// (`FHIRResponseSlice`): it is evaluated on the response cut down to those, and its results are kept
        /// with that response. Nil: it may read any part (or none, without `readsResponse`).
        let responseSlice: Set<String>?
        /// The compiled FHIRPath, or why it does not compile; neither when it is no FHIRPath.
        let fhirPath: FHIRPathExpression?
        let compileError: FHIRPathError?

        init(_ draft: Draft) {
            item = draft.item
            expression = draft.expression
            switch draft.expression.compiled {
            case .success(let compiled)?: (fhirPath, compileError) = (compiled, nil)
            case .failure(let error)?: (fhirPath, compileError) = (nil, error)
            case nil: (fhirPath, compileError) = (nil, nil)
            }
            dependencies = draft.dependencies
            variables = draft.variables
            variableList = draft.variables.sorted { $0.key < $1.key }.map { (name: FHIRPathVariableName($0.key), node: $0.value) }
            unresolved = draft.unresolved
            reads = draft.reads
            readsAnyAnswer = draft.readsAnyAnswer
            unknownLinkIds = draft.unknownLinkIds
            readsResponse = dependencies.map { $0.readsInput || !$0.variables.isDisjoint(with: ["resource", "rootResource", "context"]) } ?? true
            if readsResponse, let dependencies, let syntax = expression.program?.syntax {
                responseSlice = FHIRResponseSlice.linkIds(of: syntax, dependencies: dependencies)
            } else {
                responseSlice = nil
            }
        }

        /// The literals written in it (numbers, strings, dates, quantities), in order: values worth trying
        /// as answers of the items it reads.
        var literals: [FHIRPathSyntax.Literal] {
            var found: [FHIRPathSyntax.Literal] = []
            expression.program?.syntax.forEachNode { node in
                if case .literal(let literal) = node.kind { found.append(literal) }
            }
            return found
        }
    }

    /// A node as the program's reading works it out, before it is fixed.
    struct Draft {
        let item: Int?
        let expression: FHIR.SDCExpression
        let dependencies: FHIRPathDependencies?
        var variables: [String: Int] = [:]
        var unresolved: [String] = []
        var reads: [Int] = []
        var readsAnyAnswer = false
        var unknownLinkIds: [String] = []
    }

    let nodes: [Node]
    /// The nodes in an order where every variable, calculated value and enablement a node reads comes first
    /// (document order where the graph leaves it free); the nodes of cycles last, in document order.
    let order: [Int]
    /// Each cycle, as the nodes along it.
    let cycles: [[Int]]
    /// The calculated node of each item, the enableWhenExpression node, the answer-list nodes.
    let calculatedOfItem: [Int: Int]
    let enableWhenOfItem: [Int: Int]
    /// The nodes that read each item (directly, by linkId).
    let readersOfItem: [[Int]]
    /// The nodes that read answers without naming them.
    let readersOfAnyAnswer: [Int]
    /// The nodes that use each node (as a variable), by node.
    let usersOfVariable: [[Int]]

    /// Whether the Questionnaire has expressions a session evaluates.
    var isEmpty: Bool { nodes.isEmpty }

    /// Whether evaluating the expressions can make the engine throw, whatever the answers. Under LHC-Forms only
    /// an enableWhenExpression can: its failure is read as a list (`newVal[0]`, LHNCBC/lforms@24c71875
    /// src/fhir/expression-processor.js:538-541), while a failing calculatedExpression leaves the value as
    /// it is (:868-875), an answerExpression gives no list (:764-855), a variable is empty, and an
    /// initialExpression sets nothing. Under android-fhir every expression but a variable is evaluated by
    /// code that does not catch (ExpressionEvaluator.kt:152-164; ResourceMapper.kt:272-280).
    func mayThrow(under engine: FHIREngine) -> Bool {
        switch engine {
        case .lhcForms: nodes.contains { $0.expression.kind == .enableWhen }
        case .androidFHIR: nodes.contains { $0.expression.kind != .variable }
        }
    }

    /// The `%` names each engine binds for every expression (SDC IG "FHIRPath supplements", FHIR's own
    /// constants): `%qitem` as LHC-Forms names it (LHNCBC/lforms@24c71875 src/fhir/expression-processor.js:583),
    /// `%qItem` as android-fhir does (google/android-fhir@28a50345 …/fhirpath/ExpressionEvaluator.kt:124).
    static func boundNames(_ engine: FHIREngine) -> Set<String> {
        ["resource", "rootResource", "context", "questionnaire", "ucum", "sct", "loinc", engine == .lhcForms ? "qitem" : "qItem"]
    }

    init(_ survey: FHIROutline) {
        let items = survey.items
        var nodes: [Draft] = []
        var variablesOfItem: [Int?: [String: Int]] = [:]
        func add(_ expression: FHIR.SDCExpression, item: Int?) {
            guard expression.kind != .notEvaluated, expression.language == .fhirPath || expression.kind == .variable else { return }
            if expression.kind == .variable, let name = expression.name, variablesOfItem[item]?[name] == nil {
                variablesOfItem[item, default: [:]][name] = nodes.count
            }
            nodes.append(Draft(item: item, expression: expression, dependencies: expression.program?.dependencies))
        }
        for expression in survey.rootExpressions { add(expression, item: nil) }
        for index in items.indices {
            for expression in items[index].expressions { add(expression, item: index) }
        }
        let bound = Self.boundNames(survey.engine).union(survey.launchContexts.map(\.name))
        var calculated: [Int: Int] = [:]
        var enableWhen: [Int: Int] = [:]
        var readers = [[Int]](repeating: [], count: items.count)
        var anyReaders: [Int] = []
        var users = [[Int]](repeating: [], count: nodes.count)
        for index in nodes.indices {
            let item = nodes[index].item
            if let item, nodes[index].expression.kind == .calculated, calculated[item] == nil { calculated[item] = index }
            if let item, nodes[index].expression.kind == .enableWhen, enableWhen[item] == nil { enableWhen[item] = index }
            guard let dependencies = nodes[index].dependencies else { continue }
            for name in dependencies.variables.sorted() where !bound.contains(name) && FHIRPathEnvironment.constant(name) == nil {
                // The nearest definition: the item itself, its ancestors, the Questionnaire (SDC "variable").
                var scope = item
                var found: Int?
                while found == nil {
                    if let definition = variablesOfItem[scope]?[name], definition != index { found = definition }
                    guard let current = scope else { break }
                    scope = items[current].parent
                }
                if let found {
                    nodes[index].variables[name] = found
                    users[found].append(index)
                } else {
                    nodes[index].unresolved.append(name)
                }
            }
            // Answers are read from the response (%resource, %rootResource, %context, $this); the linkIds its
            // comparisons name say which items, and without any, every answer counts.
            let readsResponse = dependencies.paths.keys.contains { ["%resource", "%rootResource", "%context", "$this"].contains($0) }
            for linkId in dependencies.linkIds.sorted() {
                guard let sources = survey.itemsByLinkId[linkId] else {
                    if Self.namesItemsOnly(dependencies) { nodes[index].unknownLinkIds.append(linkId) }
                    continue
                }
                for source in sources where !nodes[index].reads.contains(source) {
                    nodes[index].reads.append(source)
                    readers[source].append(index)
                }
            }
            if readsResponse, dependencies.linkIds.isEmpty, Self.readsAnswers(dependencies) {
                nodes[index].readsAnyAnswer = true
                anyReaders.append(index)
            }
        }
        let fixed = nodes.map(Node.init)
        self.nodes = fixed
        calculatedOfItem = calculated
        enableWhenOfItem = enableWhen
        readersOfItem = readers
        readersOfAnyAnswer = anyReaders
        usersOfVariable = users
        (order, cycles) = Self.order(fixed, items: items, calculated: calculated, enableWhen: enableWhen)
    }

    /// Whether every path it reads starts at the response, the Questionnaire or the item: then the linkIds it
    /// compares are items' (one read from another resource, a launch context or a contained response, need
    /// not be).
    private static func namesItemsOnly(_ dependencies: FHIRPathDependencies) -> Bool {
        dependencies.paths.keys.allSatisfy { ["%resource", "%rootResource", "%context", "$this", "%questionnaire", "%qitem", "%qItem"].contains($0) }
    }

    /// Whether a path of the response reaches answers (or reads a whole subtree).
    private static func readsAnswers(_ dependencies: FHIRPathDependencies) -> Bool {
        for root in ["%resource", "%rootResource", "%context", "$this"] {
            for path in dependencies.paths[root] ?? [] where path.split(separator: ".").contains(where: { $0 == "answer" || $0 == "*" }) { return true }
        }
        return false
    }

    /// What must be evaluated before a node: the variables it uses, and for each item it reads, that item's
    /// calculated value and the enablement of the item and its ancestors (a disabled item has no answers in
    /// the response).
    static func inputs(of node: Node, items: [FHIR.Item], calculated: [Int: Int], enableWhen: [Int: Int]) -> [Int] {
        var inputs = Array(node.variables.values)
        for item in node.reads {
            if let value = calculated[item] { inputs.append(value) }
            var current: Int? = item
            while let index = current {
                if let enablement = enableWhen[index] { inputs.append(enablement) }
                current = items[index].parent
            }
        }
        return inputs
    }

    /// A topological order (Kahn's, taking the earliest node in document order each time), and the cycles
    /// among the nodes it cannot order, each as a path found by walking inputs from its first node.
    private static func order(_ nodes: [Node], items: [FHIR.Item], calculated: [Int: Int], enableWhen: [Int: Int]) -> ([Int], [[Int]]) {
        let inputLists = nodes.map { Self.inputs(of: $0, items: items, calculated: calculated, enableWhen: enableWhen) }
        var waiting = inputLists.map { Set($0).count }
        var dependants = [[Int]](repeating: [], count: nodes.count)
        for (node, list) in inputLists.enumerated() {
            for input in Set(list) { dependants[input].append(node) }
        }
        // The ready nodes, kept sorted so the earliest in document order goes first (forms have few nodes).
        var ready = nodes.indices.filter { waiting[$0] == 0 }
        var order: [Int] = []
        while !ready.isEmpty {
            let node = ready.removeFirst()
            order.append(node)
            for next in dependants[node] {
                waiting[next] -= 1
                if waiting[next] == 0 { ready.insert(next, at: ready.firstIndex { $0 > next } ?? ready.count) }
            }
        }
        let left = nodes.indices.filter { waiting[$0] > 0 }
        var cycles: [[Int]] = []
        var reported: Set<Int> = []
        for start in left where !reported.contains(start) {
            // Walk inputs that are themselves unordered (every node left has one) until a node repeats: the
            // loop from its first visit is a cycle.
            var path: [Int] = []
            var seenAt: [Int: Int] = [:]
            var current = start
            var cycle: [Int]?
            while cycle == nil {
                if let at = seenAt[current] {
                    cycle = Array(path[at...])
                    break
                }
                seenAt[current] = path.count
                path.append(current)
                guard let next = inputLists[current].first(where: { waiting[$0] > 0 }) else { break }
                current = next
            }
            guard let cycle else { continue }
            if cycle.allSatisfy({ !reported.contains($0) }) { cycles.append(cycle) }
            reported.formUnion(cycle)
        }
        return (order + left, cycles)
    }
}
