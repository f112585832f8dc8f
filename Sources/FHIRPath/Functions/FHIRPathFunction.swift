/// Every function the engine knows: the FHIRPath library (N1 and the 2.1 additions the suite exercises),
/// FHIR's additions (`extension`, `resolve`, `memberOf`, `conformsTo`, `hasValue`, `getValue`), and SDC's
/// `weight()`/`ordinal()`.
enum FHIRPathFunction: String, CaseIterable, Sendable {
    // Existence
    case empty, exists, all, allTrue, anyTrue, allFalse, anyFalse, subsetOf, supersetOf, count, distinct, isDistinct
    // Filtering and projection
    case `where`, select, `repeat`, repeatAll, ofType, coalesce
    // Subsetting
    case single, first, last, tail, skip, take, intersect, exclude
    // Combining
    case union, combine
    // Conversion
    case iif, toBoolean, convertsToBoolean, toInteger, convertsToInteger, toDecimal, convertsToDecimal, toString, convertsToString
    case toDate, convertsToDate, toDateTime, convertsToDateTime, toTime, convertsToTime, toQuantity, convertsToQuantity
    // Strings
    case indexOf, lastIndexOf, substring, startsWith, endsWith, contains, upper, lower, replace, matches, matchesFull, replaceMatches
    case length, toChars, encode, decode, escape, unescape, trim, split, join
    // Math
    case abs, ceiling, exp, floor, ln, log, power, round, sqrt, truncate
    // Tree navigation
    case children, descendants
    // Utility
    case trace, now, timeOfDay, today, defineVariable, lowBoundary, highBoundary, precision, comparable, not
    case yearOf, monthOf, dayOf, hourOf, minuteOf, secondOf, millisecondOf, timezoneOffsetOf, dateOf, timeOf
    // Types
    case type, `is`, `as`
    // Aggregates
    case aggregate, sum, min, max, avg
    case sort
    // FHIR
    case `extension`, hasValue, getValue, resolve, memberOf, conformsTo, htmlChecks
    // SDC
    case weight, ordinal

    /// The numbers of arguments the function takes.
    var arity: ClosedRange<Int> {
        switch self {
        case .empty, .allTrue, .anyTrue, .allFalse, .anyFalse, .count, .distinct, .isDistinct, .single, .first, .last, .tail,
            .toBoolean, .convertsToBoolean, .toInteger, .convertsToInteger, .toDecimal, .convertsToDecimal, .toString, .convertsToString,
            .toDate, .convertsToDate, .toDateTime, .convertsToDateTime, .toTime, .convertsToTime, .upper, .lower, .length, .toChars,
            .trim, .abs, .ceiling, .exp, .floor, .ln, .sqrt, .truncate, .children, .descendants, .now, .timeOfDay, .today, .precision,
            .not, .yearOf, .monthOf, .dayOf, .hourOf, .minuteOf, .secondOf, .millisecondOf, .timezoneOffsetOf, .dateOf, .timeOf, .type,
            .sum, .min, .max, .avg, .hasValue, .getValue, .resolve, .htmlChecks, .weight, .ordinal:
            0...0
        case .exists, .toQuantity, .convertsToQuantity, .round, .lowBoundary, .highBoundary, .join:
            0...1
        case .all, .subsetOf, .supersetOf, .where, .select, .repeat, .repeatAll, .ofType, .skip, .take, .intersect, .exclude, .union,
            .indexOf, .lastIndexOf, .startsWith, .endsWith, .contains, .encode, .decode, .escape, .unescape, .split, .log, .power,
            .comparable, .is, .as, .extension, .memberOf, .conformsTo:
            1...1
        case .combine, .substring, .matches, .matchesFull, .trace, .defineVariable, .aggregate:
            1...2
        case .replace, .replaceMatches:
            2...3
        case .iif:
            2...3
        case .coalesce, .sort:
            0...Int.max
        }
    }

    /// Arguments evaluated once per input item, with `$this` (and `$index`) bound to it, rather than once.
    func isIterated(argument: Int) -> Bool {
        switch self {
        case .exists, .all, .where, .select, .repeat, .repeatAll, .sort: true
        case .aggregate: argument == 0
        case .trace: argument == 1
        default: false
        }
    }

    /// Arguments that name a type (`ofType(Quantity)`), not expressions.
    var takesType: Bool { self == .ofType || self == .is || self == .as }

    /// Functions whose result has no defined order (`first()` after them is an error in strict mode with
    /// ordered-function checks).
    var isUnordered: Bool { self == .children || self == .descendants }

    /// Functions that depend on the order of their input.
    var needsOrder: Bool { [.first, .last, .tail, .skip, .take, .single].contains(self) }

    /// Whether the function reads the clock.
    var readsClock: Bool { self == .now || self == .today || self == .timeOfDay }

    /// Whether HAPI's FHIRPathEngine for R4 has it (org.hl7.fhir.r4 6.0.22, the version android-fhir pins:
    /// hapifhir/org.hl7.fhir.core@6.0.22 org.hl7.fhir.r4/src/main/java/org/hl7/fhir/r4/model/ExpressionNode.java,
    /// `Function.fromCode`).
    var isInHAPIR4: Bool {
        switch self {
        case .repeatAll, .coalesce, .lastIndexOf, .toDate, .timeOfDay, .defineVariable, .yearOf, .monthOf, .dayOf, .hourOf, .minuteOf,
            .secondOf, .millisecondOf, .timezoneOffsetOf, .dateOf, .timeOf, .sum, .min, .max, .avg, .sort, .getValue, .weight, .ordinal:
            false
        default:
            true
        }
    }
}
