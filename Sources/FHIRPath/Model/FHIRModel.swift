/// The FHIR R4 type model FHIRPath navigates with: every type by name (FHIR and System), each modeled
/// type's elements, the inheritance `is`/`as`/`ofType` follow, and the names of all R4 resource types.
/// Built once from the notation in `FHIRModelDatatypes.swift` and `FHIRModelResources.swift`; a class, so
/// that every tree and evaluation shares it by reference.
public final class FHIRModel: Sendable {
    public static let r4 = FHIRModel()

    /// FHIR types by name: datatypes, primitives, resources, and backbone elements by path (`Questionnaire.item`).
    let fhirTypes: [String: FHIRType]
    let systemTypes: [FHIRType.SystemType: FHIRType]
    /// Every element name of the model, numbered: trees store names as these numbers.
    let nameIDs: [String: Int32]
    let names: [String]

    public var element: FHIRType { fhirTypes["Element"]! }
    /// The type of an object the model does not describe (an element of a resource it does not know):
    /// a BackboneElement whose elements are navigated from the JSON.
    let unknownComplex: FHIRType

    /// The names of every resource type of FHIR R4 (those the model does not describe are navigated from
    /// their JSON alone).
    static let resourceTypeNames: [String] = """
        Account ActivityDefinition AdverseEvent AllergyIntolerance Appointment AppointmentResponse AuditEvent Basic Binary \
        BiologicallyDerivedProduct BodyStructure Bundle CapabilityStatement CarePlan CareTeam CatalogEntry ChargeItem \
        ChargeItemDefinition Claim ClaimResponse ClinicalImpression CodeSystem Communication CommunicationRequest \
        CompartmentDefinition Composition ConceptMap Condition Consent Contract Coverage CoverageEligibilityRequest \
        CoverageEligibilityResponse DetectedIssue Device DeviceDefinition DeviceMetric DeviceRequest DeviceUseStatement \
        DiagnosticReport DocumentManifest DocumentReference EffectEvidenceSynthesis Encounter Endpoint EnrollmentRequest \
        EnrollmentResponse EpisodeOfCare EventDefinition Evidence EvidenceVariable ExampleScenario ExplanationOfBenefit \
        FamilyMemberHistory Flag Goal GraphDefinition Group GuidanceResponse HealthcareService ImagingStudy Immunization \
        ImmunizationEvaluation ImmunizationRecommendation ImplementationGuide InsurancePlan Invoice Library Linkage List Location \
        Measure MeasureReport Media Medication MedicationAdministration MedicationDispense MedicationKnowledge MedicationRequest \
        MedicationStatement MedicinalProduct MedicinalProductAuthorization MedicinalProductContraindication \
        MedicinalProductIndication MedicinalProductIngredient MedicinalProductInteraction MedicinalProductManufactured \
        MedicinalProductPackaged MedicinalProductPharmaceutical MedicinalProductUndesirableEffect MessageDefinition MessageHeader \
        MolecularSequence NamingSystem NutritionOrder Observation ObservationDefinition OperationDefinition OperationOutcome \
        Organization OrganizationAffiliation Parameters Patient PaymentNotice PaymentReconciliation Person PlanDefinition \
        Practitioner PractitionerRole Procedure Provenance Questionnaire QuestionnaireResponse RelatedPerson RequestGroup \
        ResearchDefinition ResearchElementDefinition ResearchStudy ResearchSubject RiskAssessment RiskEvidenceSynthesis Schedule \
        SearchParameter ServiceRequest Slot Specimen SpecimenDefinition StructureDefinition StructureMap Subscription Substance \
        SubstanceNucleicAcid SubstancePolymer SubstanceProtein SubstanceReferenceInformation SubstanceSourceMaterial \
        SubstanceSpecification SupplyDelivery SupplyRequest Task TerminologyCapabilities TestReport TestScript ValueSet \
        VerificationResult VisionPrescription
        """.split(separator: " ").map(String.init)

    private init() {
        var system: [FHIRType.SystemType: FHIRType] = [:]
        let any = FHIRType(namespace: .system, name: "Any", kind: .system, base: nil, isModeled: true)
        for type in [FHIRType.SystemType.boolean, .string, .integer, .decimal, .date, .dateTime, .time, .quantity] {
            system[type] = FHIRType(namespace: .system, name: type.rawValue, kind: .system, base: any, isModeled: true, systemType: type)
        }
        systemTypes = system
        var reader = FHIRModelReader(systemTypes: system)
        reader.read(Self.datatypeDefinitions)
        reader.read(Self.resourceDefinitions)
        var types = reader.finish()
        for name in Self.resourceTypeNames where types[name] == nil {
            let base = ["Binary", "Bundle", "Parameters"].contains(name) ? types["Resource"] : types["DomainResource"]
            types[name] = FHIRType(namespace: .fhir, name: name, kind: .resource, base: base, isModeled: false)
        }
        fhirTypes = types
        unknownComplex = FHIRType(namespace: .fhir, name: "BackboneElement", kind: .complex, base: types["BackboneElement"], isModeled: false)
        var names = Set<String>()
        for type in types.values { names.formUnion(type.elementNames) }
        let sorted = names.sorted()
        self.names = sorted
        nameIDs = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, Int32($0)) })
    }

    /// A FHIR type by name (`HumanName`, `code`, `Patient`).
    public func fhirType(named name: String) -> FHIRType? { fhirTypes[name] }

    public func systemType(_ type: FHIRType.SystemType) -> FHIRType { systemTypes[type]! }

    /// The type a type specifier names: `FHIR.Patient`, `System.Integer`, or an unqualified name resolved in
    /// the FHIR model first, then among System types (`Integer`, `Quantity` in the model is FHIR's).
    public func type(namespace: String?, name: String) -> FHIRType? {
        switch namespace {
        case "FHIR": return fhirTypes[name]
        case "System": return FHIRType.SystemType(rawValue: name).map(systemType) ?? (name == "Any" ? systemType(.string).base : nil)
        case nil: return fhirTypes[name] ?? FHIRType.SystemType(rawValue: name).map(systemType)
        default: return nil
        }
    }

    /// The FHIR type a choice key's suffix names (`Quantity` in `valueQuantity`, `String` in `valueString`).
    func datatype(choiceSuffix suffix: Substring) -> FHIRType? {
        guard let first = suffix.first, first.isUppercase else { return nil }
        if let complex = fhirTypes[String(suffix)], complex.kind == .complex, !complex.name.utf8.contains(UInt8(ascii: ".")) { return complex }
        let primitive = first.lowercased() + suffix.dropFirst()
        if let type = fhirTypes[primitive], type.kind == .primitive { return type }
        return nil
    }
}

extension FHIRType {
    fileprivate var elementNames: [String] { Array(elements.keys) }
}

/// Reads the model notation (see `FHIRModel.datatypeDefinitions`) into types.
private struct FHIRModelReader {
    let systemTypes: [FHIRType.SystemType: FHIRType]
    private var types: [String: FHIRType] = [:]
    /// Each type's elements as written, resolved once every type exists: (name, isList, type names or
    /// a content reference).
    private var pending: [(type: FHIRType, elements: [(name: String, isList: Bool, isChoice: Bool, types: [String])])] = []

    init(systemTypes: [FHIRType.SystemType: FHIRType]) {
        self.systemTypes = systemTypes
    }

    mutating func read(_ text: String) {
        // The open stack of types being described, by indentation level.
        var stack: [(level: Int, type: FHIRType, index: Int)] = []
        for line in text.split(separator: "\n") {
            let indent = line.prefix { $0 == " " }.count
            let words = line.split(separator: " ").map(String.init)
            guard !words.isEmpty else { continue }
            let level = indent / 2
            if level == 0 {
                stack = []
                if words[0] == "primitive" {
                    let systemType = FHIRType.SystemType(rawValue: String(words[4].dropFirst("System.".count)))
                    let type = FHIRType(namespace: .fhir, name: words[1], kind: .primitive, base: types[words[3]], isModeled: true, systemType: systemType)
                    types[type.name] = type
                    continue
                }
                let base = words.count >= 3 ? types[words[2]] : nil
                let isResource = base.map { $0.name == "Resource" || $0.name == "DomainResource" || $0.conforms(toNamed: "Resource") } ?? false
                let type = FHIRType(namespace: .fhir, name: words[0], kind: isResource || words[0] == "Resource" ? .resource : .complex, base: base, isModeled: true)
                types[type.name] = type
                pending.append((type, []))
                stack = [(0, type, pending.count - 1)]
                continue
            }
            while let last = stack.last, last.level >= level { stack.removeLast() }
            guard let owner = stack.last else { continue }
            var name = words[0]
            let isList = name.hasSuffix("*")
            if isList { name.removeLast() }
            let isChoice = name.hasSuffix("[x]")
            if isChoice { name.removeLast(3) }
            if words.count == 1 {
                // A backbone element: a type of its own named by its path.
                let path = owner.type.name + "." + name
                let inResource = owner.type.kind == .resource || owner.type.name.utf8.contains(UInt8(ascii: ".")) && owner.type.base?.name == "BackboneElement"
                let backbone = FHIRType(
                    namespace: .fhir, name: path, kind: .complex, base: types[inResource ? "BackboneElement" : "Element"], isModeled: true)
                types[path] = backbone
                pending[owner.index].elements.append((name, isList, false, [path]))
                pending.append((backbone, []))
                stack.append((level, backbone, pending.count - 1))
            } else {
                pending[owner.index].elements.append((name, isList, isChoice, Array(words.dropFirst())))
            }
        }
    }

    func finish() -> [String: FHIRType] {
        for (type, elements) in pending {
            var definitions: [String: FHIRElementDefinition] = [:]
            for (name, isList, _, typeNames) in elements {
                var resolved: [FHIRType] = []
                for typeName in typeNames {
                    if typeName == "any" {
                        resolved += FHIRModel.openTypeNames.compactMap { types[$0] }
                    } else if typeName.hasPrefix("@") {
                        if let target = types[String(typeName.dropFirst())] { resolved.append(target) }
                    } else if let target = types[typeName] {
                        resolved.append(target)
                    }
                }
                definitions[name] = FHIRElementDefinition(name: name, types: resolved, isList: isList)
            }
            type.define(definitions)
        }
        return types
    }
}

extension FHIRType {
    fileprivate func conforms(toNamed name: String) -> Bool {
        var type: FHIRType? = self
        while let current = type {
            if current.name == name { return true }
            type = current.base
        }
        return false
    }
}
