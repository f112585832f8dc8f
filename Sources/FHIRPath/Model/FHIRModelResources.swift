extension FHIRModel {
    /// The FHIR R4 (4.0.1) resources forms and their launch contexts use, and those of the official FHIRPath
    /// suite, from each resource's page of the specification (hl7.org/fhir/R4/<resource>.html), in the
    /// notation of `datatypeDefinitions`. Other resources are navigated from their JSON alone (lenient).
    static let resourceDefinitions = """
        Resource < Base
          id id
          meta Meta
          implicitRules uri
          language code
        DomainResource < Resource
          text Narrative
          contained* Resource
          extension* Extension
          modifierExtension* Extension

        Appointment < DomainResource
          identifier* Identifier
          status code
          cancelationReason CodeableConcept
          serviceCategory* CodeableConcept
          serviceType* CodeableConcept
          specialty* CodeableConcept
          appointmentType CodeableConcept
          reasonCode* CodeableConcept
          reasonReference* Reference
          priority unsignedInt
          description string
          supportingInformation* Reference
          start instant
          end instant
          minutesDuration positiveInt
          slot* Reference
          created dateTime
          comment string
          patientInstruction string
          basedOn* Reference
          participant*
            type* CodeableConcept
            actor Reference
            required code
            status code
            period Period
          requestedPeriod* Period
        Binary < Resource
          contentType code
          securityContext Reference
          data base64Binary
        Bundle < Resource
          identifier Identifier
          type code
          timestamp instant
          total unsignedInt
          link*
            relation string
            url uri
          entry*
            link* @Bundle.link
            fullUrl uri
            resource Resource
            search
              mode code
              score decimal
            request
              method code
              url uri
              ifNoneMatch string
              ifModifiedSince instant
              ifMatch string
              ifNoneExist string
            response
              status string
              location uri
              etag string
              lastModified instant
              outcome Resource
          signature Signature
        CodeSystem < DomainResource
          url uri
          identifier* Identifier
          version string
          name string
          title string
          status code
          experimental boolean
          date dateTime
          publisher string
          contact* ContactDetail
          description markdown
          useContext* UsageContext
          jurisdiction* CodeableConcept
          purpose markdown
          copyright markdown
          caseSensitive boolean
          valueSet canonical
          hierarchyMeaning code
          compositional boolean
          versionNeeded boolean
          content code
          supplements canonical
          count unsignedInt
          filter*
            code code
            description string
            operator* code
            value string
          property*
            code code
            uri uri
            description string
            type code
          concept*
            code code
            display string
            definition string
            designation*
              language code
              use Coding
              value string
            property*
              code code
              value[x] code Coding string integer boolean dateTime decimal
            concept* @CodeSystem.concept
        Condition < DomainResource
          identifier* Identifier
          clinicalStatus CodeableConcept
          verificationStatus CodeableConcept
          category* CodeableConcept
          severity CodeableConcept
          code CodeableConcept
          bodySite* CodeableConcept
          subject Reference
          encounter Reference
          onset[x] dateTime Age Period Range string
          abatement[x] dateTime Age Period Range string
          recordedDate dateTime
          recorder Reference
          asserter Reference
          stage*
            summary CodeableConcept
            assessment* Reference
            type CodeableConcept
          evidence*
            code* CodeableConcept
            detail* Reference
          note* Annotation
        Encounter < DomainResource
          identifier* Identifier
          status code
          statusHistory*
            status code
            period Period
          class Coding
          classHistory*
            class Coding
            period Period
          type* CodeableConcept
          serviceType CodeableConcept
          priority CodeableConcept
          subject Reference
          episodeOfCare* Reference
          basedOn* Reference
          participant*
            type* CodeableConcept
            period Period
            individual Reference
          appointment* Reference
          period Period
          length Duration
          reasonCode* CodeableConcept
          reasonReference* Reference
          diagnosis*
            condition Reference
            use CodeableConcept
            rank positiveInt
          account* Reference
          hospitalization
            preAdmissionIdentifier Identifier
            origin Reference
            admitSource CodeableConcept
            reAdmission CodeableConcept
            dietPreference* CodeableConcept
            specialCourtesy* CodeableConcept
            specialArrangement* CodeableConcept
            destination Reference
            dischargeDisposition CodeableConcept
          location*
            location Reference
            status code
            physicalType CodeableConcept
            period Period
          serviceProvider Reference
          partOf Reference
        Location < DomainResource
          identifier* Identifier
          status code
          operationalStatus Coding
          name string
          alias* string
          description string
          mode code
          type* CodeableConcept
          telecom* ContactPoint
          address Address
          physicalType CodeableConcept
          position
            longitude decimal
            latitude decimal
            altitude decimal
          managingOrganization Reference
          partOf Reference
          hoursOfOperation*
            daysOfWeek* code
            allDay boolean
            openingTime time
            closingTime time
          availabilityExceptions string
          endpoint* Reference
        Observation < DomainResource
          identifier* Identifier
          basedOn* Reference
          partOf* Reference
          status code
          category* CodeableConcept
          code CodeableConcept
          subject Reference
          focus* Reference
          encounter Reference
          effective[x] dateTime Period Timing instant
          issued instant
          performer* Reference
          value[x] Quantity CodeableConcept string boolean integer Range Ratio SampledData time dateTime Period
          dataAbsentReason CodeableConcept
          interpretation* CodeableConcept
          note* Annotation
          bodySite CodeableConcept
          method CodeableConcept
          specimen Reference
          device Reference
          referenceRange*
            low Quantity
            high Quantity
            type CodeableConcept
            appliesTo* CodeableConcept
            age Range
            text string
          hasMember* Reference
          derivedFrom* Reference
          component*
            code CodeableConcept
            value[x] Quantity CodeableConcept string boolean integer Range Ratio SampledData time dateTime Period
            dataAbsentReason CodeableConcept
            interpretation* CodeableConcept
            referenceRange* @Observation.referenceRange
        OperationOutcome < DomainResource
          issue*
            severity code
            code code
            details CodeableConcept
            diagnostics string
            location* string
            expression* string
        Organization < DomainResource
          identifier* Identifier
          active boolean
          type* CodeableConcept
          name string
          alias* string
          telecom* ContactPoint
          address* Address
          partOf Reference
          contact*
            purpose CodeableConcept
            name HumanName
            telecom* ContactPoint
            address Address
          endpoint* Reference
        Parameters < Resource
          parameter*
            name string
            value[x] any
            resource Resource
            part* @Parameters.parameter
        Patient < DomainResource
          identifier* Identifier
          active boolean
          name* HumanName
          telecom* ContactPoint
          gender code
          birthDate date
          deceased[x] boolean dateTime
          address* Address
          maritalStatus CodeableConcept
          multipleBirth[x] boolean integer
          photo* Attachment
          contact*
            relationship* CodeableConcept
            name HumanName
            telecom* ContactPoint
            address Address
            gender code
            organization Reference
            period Period
          communication*
            language CodeableConcept
            preferred boolean
          generalPractitioner* Reference
          managingOrganization Reference
          link*
            other Reference
            type code
        Practitioner < DomainResource
          identifier* Identifier
          active boolean
          name* HumanName
          telecom* ContactPoint
          address* Address
          gender code
          birthDate date
          photo* Attachment
          qualification*
            identifier* Identifier
            code CodeableConcept
            period Period
            issuer Reference
          communication* CodeableConcept
        PractitionerRole < DomainResource
          identifier* Identifier
          active boolean
          period Period
          practitioner Reference
          organization Reference
          code* CodeableConcept
          specialty* CodeableConcept
          location* Reference
          healthcareService* Reference
          telecom* ContactPoint
          availableTime*
            daysOfWeek* code
            allDay boolean
            availableStartTime time
            availableEndTime time
          notAvailable*
            description string
            during Period
          availabilityExceptions string
          endpoint* Reference
        Questionnaire < DomainResource
          url uri
          identifier* Identifier
          version string
          name string
          title string
          derivedFrom* canonical
          status code
          experimental boolean
          subjectType* code
          date dateTime
          publisher string
          contact* ContactDetail
          description markdown
          useContext* UsageContext
          jurisdiction* CodeableConcept
          purpose markdown
          copyright markdown
          approvalDate date
          lastReviewDate date
          effectivePeriod Period
          code* Coding
          item*
            linkId string
            definition uri
            code* Coding
            prefix string
            text string
            type code
            enableWhen*
              question string
              operator code
              answer[x] boolean decimal integer date dateTime time string Coding Quantity Reference
            enableBehavior code
            required boolean
            repeats boolean
            readOnly boolean
            maxLength integer
            answerValueSet canonical
            answerOption*
              value[x] integer date time string Coding Reference
              initialSelected boolean
            initial*
              value[x] boolean decimal integer date dateTime time string uri Attachment Coding Quantity Reference
            item* @Questionnaire.item
        QuestionnaireResponse < DomainResource
          identifier Identifier
          basedOn* Reference
          partOf* Reference
          questionnaire canonical
          status code
          subject Reference
          encounter Reference
          authored dateTime
          author Reference
          source Reference
          item*
            linkId string
            definition uri
            text string
            answer*
              value[x] boolean decimal integer date dateTime time string uri Attachment Coding Quantity Reference
              item* @QuestionnaireResponse.item
            item* @QuestionnaireResponse.item
        RelatedPerson < DomainResource
          identifier* Identifier
          active boolean
          patient Reference
          relationship* CodeableConcept
          name* HumanName
          telecom* ContactPoint
          gender code
          birthDate date
          address* Address
          photo* Attachment
          period Period
          communication*
            language CodeableConcept
            preferred boolean
        ValueSet < DomainResource
          url uri
          identifier* Identifier
          version string
          name string
          title string
          status code
          experimental boolean
          date dateTime
          publisher string
          contact* ContactDetail
          description markdown
          useContext* UsageContext
          jurisdiction* CodeableConcept
          immutable boolean
          purpose markdown
          copyright markdown
          compose
            lockedDate date
            inactive boolean
            include*
              system uri
              version string
              concept*
                code code
                display string
                designation*
                  language code
                  use Coding
                  value string
              filter*
                property code
                op code
                value string
              valueSet* canonical
            exclude* @ValueSet.compose.include
          expansion
            identifier uri
            timestamp dateTime
            total integer
            offset integer
            parameter*
              name string
              value[x] string boolean integer decimal uri code dateTime
            contains*
              system uri
              abstract boolean
              inactive boolean
              version string
              code code
              display string
              designation* @ValueSet.compose.include.concept.designation
              contains* @ValueSet.expansion.contains
        """
}
