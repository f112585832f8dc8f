import SurveyCore

/// What each other release that renders the file shows after each action path, shared by the step checkers
/// of one walker's walks (`SageStepChecker.versionDifferences`).
///
/// A compared release runs a fresh session of its own that performs the walk's actions, so what it shows
/// after a path is a function of the exact list of actions taken (sessions are deterministic: the same
/// actions on a fresh session give the same results, which fuzz's `deterministic-replay` checks). Walks
/// share their first actions often (a task's first steps have few choices), so the paths walked are kept as
/// a tree of actions, each node holding what each release shows after its path and the release's session
/// there. A walk going down a path some walk took before reads what each release shows from the nodes and
/// performs nothing; where it leaves the tree, it continues from copies of the sessions of the last node
/// (`SageSession.copy()`), and the new node joins the tree while it has room. Children are found by
/// comparing the whole action, so a node stands for one exact action list. A tree that has no room
/// (`nodeLimit` 0, as for a checker made on its own) replays every action, as the checker always did.
final class SageShadowTree: StepCheckerSource {
    /// One action list: the action that ends it, and each compared release after it.
    final class Node {
        let action: Action?
        /// How many actions its path has.
        let depth: Int
        // A tree is one walker's, used by one thread at a time: no dynamic exclusivity checks on its nodes,
        // read by every compared release at every step a walk takes in the tree.
        @exclusivity(unchecked) var children: [Node] = []
        /// By release (in `engines`' order): what it shows after the path; nil where no walk needed it.
        @exclusivity(unchecked) var sights: [SageStepChecker.Sight?]
        /// By release: its session after the path, never changed (copied before it goes on).
        @exclusivity(unchecked) var sessions: [SageSession?]

        init(action: Action?, depth: Int, releases: Int) {
            self.action = action
            self.depth = depth
            sights = Array(repeating: nil, count: releases)
            sessions = Array(repeating: nil, count: releases)
        }
    }

    /// The most nodes the tree keeps, so that its memory stays bounded (each holds a session a release).
    static let defaultNodeLimit = 4096
    /// The longest path kept: walks share their first actions, seldom a long path (in 20,000 walks of the
    /// corpus's TaskFoo, 5 in 6 of the actions a walk shares with an earlier walk are among its first 6,
    /// which take some 4,100 paths).
    static let depthLimit = 6

    let survey: SageSurvey
    let nodeLimit: Int
    /// The engine and settings of the walks the tree is for, and the other releases compared with it.
    private(set) var mainEngine: SageEngine?
    private(set) var settings: SessionSettings?
    private(set) var engines: [SageEngine] = []
    private(set) var root = Node(action: nil, depth: 0, releases: 0)
    private(set) var nodes = 1
    /// How many actions the compared releases' sessions performed (work counted, for tests).
    private(set) var shadowSteps = 0

    init(survey: SageSurvey, nodeLimit: Int = SageShadowTree.defaultNodeLimit) {
        self.survey = survey
        self.nodeLimit = nodeLimit
    }

    func makeStepChecker() -> any StepChecker {
        SageStepChecker(survey: survey, tree: self)
    }

    /// Makes the tree one for walks of this session's engine and settings (a new one when they differ).
    func prepare(for session: SageSession) {
        if mainEngine == session.engine, settings == session.settings { return }
        mainEngine = session.engine
        settings = session.settings
        engines = Self.otherReleases(of: session, survey: survey)
        root = Node(action: nil, depth: 0, releases: engines.count)
        nodes = 1
    }

    /// The engines compared with a session's: one per other profile of the file's generation; releases that
    /// differ only in the result they write navigate alike, so one of each such pair. For AssessmentModel,
    /// the other implementation.
    private static func otherReleases(of session: SageSession, survey: SageSurvey) -> [SageEngine] {
        var twins: Set<String> = [session.engine.navigationTwin.rawValue]
        return SageEngine.profiles(for: survey.generation).compactMap { profile in
            var engine: SageEngine
            if survey.generation == .assessment {
                var other = session.settings
                other.options[SageEngine.implementationOption] = session.engine.isKotlin ? "swift" : "kotlin"
                engine = SageEngine(generation: survey.generation, settings: other)
            } else {
                var settings = session.settings
                settings.profile = profile
                engine = SageEngine(generation: survey.generation, settings: settings)
                if !twins.insert(engine.navigationTwin.rawValue).inserted { return nil }
            }
            return engine == session.engine ? nil : engine
        }
    }

    /// A release's fresh session (the settings the walks run under, the release's engine).
    func freshSession(_ release: Int) -> SageSession {
        SageSession(survey: survey, engine: engines[release], settings: settings!, coverage: nil)
    }

    /// The release's session after `path`, replayed on a fresh session.
    func replayed(_ release: Int, _ path: ArraySlice<Action>) -> SageSession {
        let session = freshSession(release)
        for action in path { perform(action, on: session) }
        return session
    }

    func perform(_ action: Action, on session: SageSession) {
        shadowSteps += 1
        _ = session.perform(action)
    }

    /// The child of `node` for `action`, if a walk took it.
    func child(of node: Node, for action: Action) -> Node? {
        node.children.first { $0.action == action }
    }

    /// A new child of `node` for `action`, or nil when the tree is full or the path too long to keep.
    func addChild(to node: Node, for action: Action) -> Node? {
        guard nodes < nodeLimit, node.depth < Self.depthLimit else { return nil }
        nodes += 1
        let child = Node(action: action, depth: node.depth + 1, releases: engines.count)
        node.children.append(child)
        return child
    }
}
