import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit

// A corpus of Codable types as apps write them, and random values of each: every value must
// satisfy its type's derived schema and go through `vm.send` and back unchanged.

enum Level: String, Codable, CaseIterable, Sendable { case low, medium, high }
enum Grade: Int, Codable, CaseIterable, Sendable { case one = 1, two, five = 5 }

struct Point: Codable, Equatable, Sendable {
    var x: Int16
    var label: String?
}

/// Every shape the derivation handles, with members after the enumerations.
struct Survey: Codable, Equatable, Sendable {
    var level: Level
    var grade: Grade
    var count: Int
    var note: String?
    var maybeLevel: Level?
    var tags: [String]
    var scores: [String: Double]
    var origin: Point
    var path: [Point?]
    var groups: [String: [Grade]]
    var ratio: Double
    var flag: Bool
    var big: UInt32
}

/// Refers to itself.
struct Thread: Codable, Equatable, Sendable {
    var title: String
    var replies: [Thread]
}

/// One input per corpus type, each echoed on a state output.
struct CorpusEcho: ViewModel {
    static let summary = "Echoes each corpus value."

    struct Ports: ViewModelPorts {
        let survey = Input<Survey>("A survey.")
        let thread = Input<Thread>("A thread.")
        let lastSurvey = State<Survey?>("The last survey.", initial: nil)
        let lastThread = State<Thread?>("The last thread.", initial: nil)
    }

    init(ports: Ports, context: Context) {
        ports.lastSurvey.bind(ports.survey.map { Optional($0) })
        ports.lastThread.bind(ports.thread.map { Optional($0) })
    }
}

/// A raw-value enumeration that cannot list its cases.
enum Weather: String, Codable, Sendable { case sunny, rainy }

/// Holds one, with a member after it.
struct Forecast: Codable, Equatable, Sendable {
    var city: String
    var weather: Weather
    var degrees: Int
}

/// Would publish a schema that lacks `degrees`: registration must refuse it.
struct ForecastBoard: ViewModel {
    static let summary = "Shows a forecast."

    struct Ports: ViewModelPorts {
        let forecast = Input<Forecast>("A forecast.")
    }

    init(ports: Ports, context: Context) {}
}

@Suite("Derived schemas never lie: a corpus of Codable types, random values, through vm.send")
struct SchemaCorpusTests {
    @Test("every random value satisfies its derived schema and goes through vm.send and back unchanged")
    func randomValuesRoundTrip() throws {
        var registry = ViewModelRegistry()
        try registry.register(CorpusEcho.self)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        let echo = try host.create(type: "CorpusEcho")
        let surveySchema = try JSONSchema(JSONSchemaBuilder.schema(for: Survey.self))
        let threadSchema = try JSONSchema(JSONSchemaBuilder.schema(for: Thread.self))
        let encoder = JSONValueEncoder()
        let decoder = JSONValueDecoder()
        var random = SeededGenerator(seed: 23)
        for _ in 0..<200 {
            let survey = Survey.random(using: &random)
            let json = try encoder.encode(survey)
            #expect(surveySchema.isValid(json), "\(json.encodedString())")
            try echo.send(input: "survey", value: json)
            #expect(try decoder.decode(Survey.self, from: echo.currentValue(output: "lastSurvey")) == survey)

            let thread = Thread.random(depth: 3, using: &random)
            let threadJSON = try encoder.encode(thread)
            #expect(threadSchema.isValid(threadJSON), "\(threadJSON.encodedString())")
            try echo.send(input: "thread", value: threadJSON)
            #expect(try decoder.decode(Thread.self, from: echo.currentValue(output: "lastThread")) == thread)
        }
    }

    @Test("the derived schema keeps every member, the ones after an enumeration included")
    func everyMemberKept() throws {
        let schema = JSONSchemaBuilder.schema(for: Survey.self)
        let properties = schema.objectValue?["properties"]?.objectValue
        #expect(properties.map { Array($0.keys) } == [
            "level", "grade", "count", "note", "maybeLevel", "tags", "scores", "origin", "path", "groups", "ratio", "flag", "big",
        ])
        #expect(schema.objectValue?["additionalProperties"] == false)
    }

    @Test("registering a type whose schema cannot be derived fails, naming the type and the member")
    func undescribableRefused() {
        var registry = ViewModelRegistry()
        #expect(throws: ViewModelDefinitionError(type: "ForecastBoard", problem: """
            the schema of input 'forecast' cannot be derived: Forecast.weather (Weather): an enumeration with raw values \
            that is not CaseIterable: its cases cannot be listed. Conform Weather to CaseIterable (or state its schema \
            with JSONSchemaProviding).
            """)) {
            try registry.register(ForecastBoard.self)
        }
    }
}

extension Survey {
    static func random(using random: inout SeededGenerator) -> Survey {
        func word() -> String {
            let words = ["", "a", "héllo", "日本", "quote\"d", "new\nline", "tab\t", "😀"]
            return words[Int.random(in: 0..<words.count, using: &random)]
        }
        func point() -> Point {
            Point(x: Int16.random(in: .min ... .max, using: &random), label: Bool.random(using: &random) ? word() : nil)
        }
        return Survey(
            level: Level.allCases.randomElement(using: &random) ?? .low,
            grade: Grade.allCases.randomElement(using: &random) ?? .one,
            count: Int.random(in: .min ... .max, using: &random),
            note: Bool.random(using: &random) ? word() : nil,
            maybeLevel: Bool.random(using: &random) ? Level.allCases.randomElement(using: &random) : nil,
            tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in word() },
            scores: Dictionary((0..<Int.random(in: 0...3, using: &random)).map { index in
                ("k\(index)" + word(), Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 64)
            }, uniquingKeysWith: { first, _ in first }),
            origin: point(),
            path: (0..<Int.random(in: 0...3, using: &random)).map { _ in Bool.random(using: &random) ? point() : nil },
            groups: Dictionary((0..<Int.random(in: 0...2, using: &random)).map { index in
                (word() + "\(index)", (0..<Int.random(in: 0...2, using: &random)).compactMap { _ in Grade.allCases.randomElement(using: &random) })
            }, uniquingKeysWith: { first, _ in first }),
            ratio: Double.random(in: -1e6...1e6, using: &random).rounded() / 8,
            flag: Bool.random(using: &random),
            big: UInt32.random(in: .min ... .max, using: &random))
    }
}

extension Thread {
    static func random(depth: Int, using random: inout SeededGenerator) -> Thread {
        let replies = depth == 0 ? 0 : Int.random(in: 0...2, using: &random)
        return Thread(
            title: "t\(Int.random(in: 0...99, using: &random))",
            replies: (0..<replies).map { _ in Thread.random(depth: depth - 1, using: &random) })
    }
}
