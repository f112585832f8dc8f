extension FHIRModel {
    /// The FHIR R4 (4.0.1) base types and datatypes, from the specification's datatypes page
    /// (hl7.org/fhir/R4/datatypes.html, metadatatypes.html, extensibility.html, narrative.html). The notation
    /// is read by `FHIRModelReader`:
    ///
    /// - `primitive name < base System.Type` declares a primitive, its base and the System type its value is;
    /// - `Name < Base` starts a type; the indented lines under it are its elements;
    /// - `name Type`, `name* Type` (repeating), `name[x] Type Type…` (a choice; `any` for every datatype),
    ///   `name* @Type.path` (a content reference);
    /// - an element without a type is a backbone element; its own elements are indented under it.
    static let datatypeDefinitions = """
        Base
        Element < Base
          id string
          extension* Extension
        BackboneElement < Element
          modifierExtension* Extension

        primitive boolean < Element System.Boolean
        primitive integer < Element System.Integer
        primitive positiveInt < integer System.Integer
        primitive unsignedInt < integer System.Integer
        primitive decimal < Element System.Decimal
        primitive string < Element System.String
        primitive code < string System.String
        primitive id < string System.String
        primitive markdown < string System.String
        primitive uri < Element System.String
        primitive url < uri System.String
        primitive canonical < uri System.String
        primitive oid < uri System.String
        primitive uuid < uri System.String
        primitive base64Binary < Element System.String
        primitive xhtml < Element System.String
        primitive date < Element System.Date
        primitive dateTime < Element System.DateTime
        primitive instant < Element System.DateTime
        primitive time < Element System.Time

        Extension < Element
          url uri
          value[x] any
        Narrative < Element
          status code
          div xhtml
        Address < Element
          use code
          type code
          text string
          line* string
          city string
          district string
          state string
          postalCode string
          country string
          period Period
        Annotation < Element
          author[x] Reference string
          time dateTime
          text markdown
        Attachment < Element
          contentType code
          language code
          data base64Binary
          url url
          size unsignedInt
          hash base64Binary
          title string
          creation dateTime
        CodeableConcept < Element
          coding* Coding
          text string
        Coding < Element
          system uri
          version string
          code code
          display string
          userSelected boolean
        ContactDetail < Element
          name string
          telecom* ContactPoint
        ContactPoint < Element
          system code
          value string
          use code
          rank positiveInt
          period Period
        Contributor < Element
          type code
          name string
          contact* ContactDetail
        DataRequirement < Element
          type code
          profile* canonical
          subject[x] CodeableConcept Reference
          mustSupport* string
          codeFilter*
            path string
            searchParam string
            valueSet canonical
            code* Coding
          dateFilter*
            path string
            searchParam string
            value[x] dateTime Period Duration
          limit positiveInt
          sort*
            path string
            direction code
        Dosage < BackboneElement
          sequence integer
          text string
          additionalInstruction* CodeableConcept
          patientInstruction string
          timing Timing
          asNeeded[x] boolean CodeableConcept
          site CodeableConcept
          route CodeableConcept
          method CodeableConcept
          doseAndRate*
            type CodeableConcept
            dose[x] Range Quantity
            rate[x] Ratio Range Quantity
          maxDosePerPeriod Ratio
          maxDosePerAdministration Quantity
          maxDosePerLifetime Quantity
        Expression < Element
          description string
          name id
          language code
          expression string
          reference uri
        HumanName < Element
          use code
          text string
          family string
          given* string
          prefix* string
          suffix* string
          period Period
        Identifier < Element
          use code
          type CodeableConcept
          system uri
          value string
          period Period
          assigner Reference
        Meta < Element
          versionId id
          lastUpdated instant
          source uri
          profile* canonical
          security* Coding
          tag* Coding
        Money < Element
          value decimal
          currency code
        ParameterDefinition < Element
          name code
          use code
          min integer
          max string
          documentation string
          type code
          profile canonical
        Period < Element
          start dateTime
          end dateTime
        Quantity < Element
          value decimal
          comparator code
          unit string
          system uri
          code code
        Age < Quantity
        Count < Quantity
        Distance < Quantity
        Duration < Quantity
        MoneyQuantity < Quantity
        SimpleQuantity < Quantity
        Range < Element
          low Quantity
          high Quantity
        Ratio < Element
          numerator Quantity
          denominator Quantity
        Reference < Element
          reference string
          type uri
          identifier Identifier
          display string
        RelatedArtifact < Element
          type code
          label string
          display string
          citation markdown
          url url
          document Attachment
          resource canonical
        SampledData < Element
          origin Quantity
          period decimal
          factor decimal
          lowerLimit decimal
          upperLimit decimal
          dimensions positiveInt
          data string
        Signature < Element
          type* Coding
          when instant
          who Reference
          onBehalfOf Reference
          targetFormat code
          sigFormat code
          data base64Binary
        Timing < BackboneElement
          event* dateTime
          repeat
            bounds[x] Duration Range Period
            count positiveInt
            countMax positiveInt
            duration decimal
            durationMax decimal
            durationUnit code
            frequency positiveInt
            frequencyMax positiveInt
            period decimal
            periodMax decimal
            periodUnit code
            dayOfWeek* code
            timeOfDay* time
            when* code
            offset unsignedInt
          code CodeableConcept
        TriggerDefinition < Element
          type code
          name string
          timing[x] Timing Reference date dateTime
          data* DataRequirement
          condition Expression
        UsageContext < Element
          code Coding
          value[x] CodeableConcept Quantity Range Reference
        """

    /// The datatypes a choice element typed `any` (Extension.value[x], Parameters.parameter.value[x]) allows.
    static let openTypeNames = [
        "base64Binary", "boolean", "canonical", "code", "date", "dateTime", "decimal", "id", "instant", "integer", "markdown", "oid",
        "positiveInt", "string", "time", "unsignedInt", "uri", "url", "uuid", "Address", "Age", "Annotation", "Attachment",
        "CodeableConcept", "Coding", "ContactPoint", "Count", "Distance", "Duration", "HumanName", "Identifier", "Money", "Period",
        "Quantity", "Range", "Ratio", "Reference", "SampledData", "Signature", "Timing", "ContactDetail", "Contributor",
        "DataRequirement", "Expression", "ParameterDefinition", "RelatedArtifact", "TriggerDefinition", "UsageContext", "Dosage", "Meta",
    ]
}
