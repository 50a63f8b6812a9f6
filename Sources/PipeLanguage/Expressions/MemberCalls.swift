/// The members of the closure language, one row each. Adding a member is adding a row here (and
/// its tests): the interpreter, the static pass, the infallibility proof, the printer and the
/// Swift translation all read this table.
extension MemberCall {
    static let all: [MemberCall] = [
        MemberCall(
            name: "count",
            summary: "the number of elements of an array, or of characters of a string",
            example: ("[1, 2, 3].count", .int(3)),
            isMethod: false,
            kind: { k in (.int, !MemberRules.isSized(k)) },
            infallible: { k in (.int, MemberRules.isSized(k)) },
            evaluate: { v in
                switch v {
                case .array(let a): .int(a.count)
                case .string(let s): .int(s.count)
                default: nil
                }
            },
            swift: { base, k, _ in MemberRules.isSized(k) ? ("\(base).count", .int) : nil }),

        MemberCall(
            name: "isEmpty",
            summary: "whether an array or a string has no elements",
            example: ("\"\".isEmpty", .bool(true)),
            isMethod: false,
            kind: { k in (.bool, !MemberRules.isSized(k)) },
            infallible: { k in (.bool, MemberRules.isSized(k)) },
            evaluate: { v in
                switch v {
                case .array(let a): .bool(a.isEmpty)
                case .string(let s): .bool(s.isEmpty)
                default: nil
                }
            },
            swift: { base, k, _ in MemberRules.isSized(k) ? ("\(base).isEmpty", .bool) : nil }),

        MemberCall(
            name: "first",
            summary: "an array's first element, or nil when it is empty",
            example: ("[4, 5].first", .int(4)),
            isMethod: false,
            kind: MemberRules.elementKind,
            // `first` of an empty array is nil: its kind is not certain.
            infallible: { k in (nil, MemberRules.isArray(k)) },
            evaluate: { v in
                guard case .array(let a) = v else { return nil }
                return a.first ?? .null
            },
            swift: MemberRules.optionalElement("first")),

        MemberCall(
            name: "last",
            summary: "an array's last element, or nil when it is empty",
            example: ("[4, 5].last", .int(5)),
            isMethod: false,
            kind: MemberRules.elementKind,
            infallible: { k in (nil, MemberRules.isArray(k)) },
            evaluate: { v in
                guard case .array(let a) = v else { return nil }
                return a.last ?? .null
            },
            swift: MemberRules.optionalElement("last")),

        MemberCall(
            name: "uppercased",
            summary: "a string in capitals; written with or without ()",
            example: ("\"abc\".uppercased()", .string("ABC")),
            isMethod: true,
            kind: { k in (.string, k != .string) },
            infallible: { k in (.string, k == .string) },
            evaluate: { v in
                guard case .string(let s) = v else { return nil }
                return .string(s.uppercased())
            },
            swift: { base, k, _ in k == .string ? ("\(base).uppercased()", .string) : nil }),

        MemberCall(
            name: "lowercased",
            summary: "a string in small letters; written with or without ()",
            example: ("\"ABC\".lowercased()", .string("abc")),
            isMethod: true,
            kind: { k in (.string, k != .string) },
            infallible: { k in (.string, k == .string) },
            evaluate: { v in
                guard case .string(let s) = v else { return nil }
                return .string(s.lowercased())
            },
            swift: { base, k, _ in k == .string ? ("\(base).lowercased()", .string) : nil }),
    ]
}

/// Rules several member rows share.
enum MemberRules {
    static func isArray(_ k: ValueKind?) -> Bool {
        if case .array = k { true } else { false }
    }

    /// Strings and arrays have a count.
    static func isSized(_ k: ValueKind?) -> Bool { k == .string || isArray(k) }

    /// `first`/`last`: an array's element kind; of anything else, unknown and may fail.
    @Sendable static func elementKind(_ k: ValueKind) -> (kind: ValueKind, mayFail: Bool) {
        if case .array(let e) = k { return (e, false) }
        return (.any, true)
    }

    /// `first`/`last` in Swift: an Optional there, nil in the language's value.
    static func optionalElement(
        _ name: String
    ) -> @Sendable (String, ValueKind, inout [String]) -> (text: String, kind: ValueKind)? {
        { base, k, problems in
            problems.append(".\(name) is an Optional in Swift; the language gives nil in its place")
            if case .array(let element) = k { return ("\(base).\(name)", element) }
            return ("\(base).\(name)", .any)
        }
    }
}
