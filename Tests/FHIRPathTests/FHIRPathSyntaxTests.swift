import Foundation
import SurveyCore
import Testing
@testable import FHIRPath

@Suite struct FHIRPathSyntaxTests {
    @Test("operators bind by the spec's precedence: unary minus after invocation, 'is' between '+' and '|'")
    func precedence() throws {
        #expect(try evaluate("1+2*3+4") == ["11 (integer)"])
        #expect(try evaluate("(1 | 1 is Integer).count()") == ["2 (integer)"])
        #expect(try evaluate("true and '0215' in ('0215' | '0216')") == ["true (boolean)"])
        #expect(try evaluate("-(3).abs()") == ["-3 (integer)"])
        #expect(try evaluate("2 - 1 - 1") == ["0 (integer)"])
    }

    @Test("string escapes, unicode escapes, backtick names and comments lex as the grammar says")
    func lexing() throws {
        #expect(try evaluate(#"'a\'b\u0041\\\p'"#) == [#"'a\'bA\\p' (string)"#])
        #expect(try evaluate("'\\uD83D\\uDD25'.length()") == ["1 (integer)"])
        #expect(try evaluate("2 + /* three */ 3 // four") == ["5 (integer)"])
        let patient = try tree(Fixtures.patient)
        #expect(try evaluate("`name`.`given`.first()", on: patient) == ["'Ada' (string)"])
    }

    @Test("syntax errors carry the range of the offending text")
    func syntaxErrors() {
        let cases: [(String, Int)] = [("2 + 2 /", 6), ("2 + 2 /* open", 6), ("name.", 5), ("(1 + 2", 6), ("'open", 0), ("1 2", 2), ("@2014-13-01", 0), ("a.and", 2), ("$thus", 0), ("{1}", 1)]
        for (text, offset) in cases {
            let error = failure(text)
            #expect(error?.kind == .syntax, "\(text)")
            #expect(error?.range?.lowerBound == offset, "\(text): \(String(describing: error))")
        }
        #expect(failure("")?.kind == .syntax)
    }

    @Test("nesting thousands deep is refused with an error, not a stack overflow")
    func deepNesting() {
        let deep = String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000)
        #expect(failure(deep)?.kind == .syntax)
        let minus = String(repeating: "-", count: 5000) + "1"
        #expect(failure(minus)?.kind == .syntax)
        #expect(failure("name" + String(repeating: ".given", count: 5000))?.kind == .syntax)
        #expect(failure(String(repeating: "1 + ", count: 5000) + "1")?.kind == .syntax)
        #expect(failure("name" + String(repeating: ".given", count: 150)) == nil)
    }

    @Test("an error inside a JSON string is located at the file's line and column of the offending character, past its escapes")
    func locationInJSONFile() throws {
        let text = """
            {"item": [
              {"expression": "%a + \\u0027x\\t\\u00e9\\u0027 + (1 +"}
            ]}
            """
        let file = SourceFile(path: "form.json", text: text)
        let root = try JSONParser.parse(file)
        let node = try #require(root["item"]?.elements?.first?["expression"])
        let source = try #require(FHIRPathSource(jsonString: node))
        #expect(source.text == "%a + 'x\t\u{e9}' + (1 +")
        var caught: FHIRPathError?
        do throws(FHIRPathError) { _ = try FHIRPathExpression(source) } catch { caught = error }
        let error = try #require(caught)
        // The error is at the last '+'; the file's column counts the escapes `\u0027`, `\t` and `\u00e9` as written.
        let diagnostic = source.diagnostic(for: error)
        let line = file.line(2)
        let plus = try #require(line.lastIndex(of: "+"))
        #expect(diagnostic.position == SourcePosition(line: 2, column: line.distance(from: line.startIndex, to: plus) + 1))
        #expect(diagnostic.file == "form.json")
        #expect(diagnostic.message.hasPrefix("FHIRPath syntax error:"))
    }

    @Test("an expression given on its own reports the character column")
    func standaloneColumn() {
        let source = FHIRPathSource(text: "'é' + ")
        #expect(source.position(ofExpressionOffset: 5) == SourcePosition(line: 1, column: 5))
    }
}
