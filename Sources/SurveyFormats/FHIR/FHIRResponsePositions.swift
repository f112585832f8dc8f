import SurveyCore

extension FHIRStandardResponse {
    /// The tree position of each answered instance the response writes, by the id reading the response gives
    /// it (`FHIRResponseReader`, whose numbering this follows): the repeats of an item are numbered among the
    /// response items written, so a repeat left out (nothing answered in it) moves those after it, as import
    /// numbers them. Walks the instances as `item(at:_:)` writes them, so it is exact wherever that is.
    func positionsAsRead(_ input: FHIRResponseInput) -> [String: Int] {
        var positions: [String: Int] = [:]
        visit(childPositions(of: nil, answer: nil, input), parentItem: nil, prefix: "", input, &positions)
        return positions
    }

    /// The instances of one level (`list`, under the reader's item `parentItem`), numbered as the reader
    /// numbers the response items they write.
    private func visit(_ list: [Int], parentItem: Int?, prefix: String, _ input: FHIRResponseInput, _ positions: inout [String: Int]) {
        let survey = input.survey
        var occurrences: [Int: Int] = [:]
        for position in list where item(at: position, input) != nil {
            let instance = input.tree.instances[position]
            let candidates = survey.places.items(survey.items[instance.item].linkId, under: parentItem)
            guard let first = candidates.first else { continue }
            let count = (occurrences[first] ?? 0) + 1
            occurrences[first] = count
            if survey.items[first].isRepeatingGroup {
                visit(childPositions(of: position, answer: nil, input), parentItem: first, prefix: "\(prefix)\(survey.items[first].id)#\(count)/", input, &positions)
                continue
            }
            guard count <= candidates.count else { continue }
            let index = candidates[count - 1]
            let item = survey.items[index]
            guard item.type.takesAnswers else {
                visit(childPositions(of: position, answer: nil, input), parentItem: index, prefix: prefix, input, &positions)
                continue
            }
            let id = prefix + item.id
            positions[id] = position
            for answer in input.answers(at: position).indices {
                visit(childPositions(of: position, answer: answer, input), parentItem: index, prefix: item.repeats ? "\(id)#\(answer + 1)/" : prefix, input, &positions)
            }
        }
    }
}
