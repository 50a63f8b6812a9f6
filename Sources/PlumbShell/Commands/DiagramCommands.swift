import Foundation
import PipeLanguage

/// `:marbles` and `:export`: the diagrams of the last run, a job or the paused run, on the screen
/// or as an SVG picture, and whether runs draw one.
enum DiagramCommands {
    /// `:marbles [on|off|N]`.
    static func marbles(_ argument: String, at location: SourceLocation, in context: CommandContext) -> StepResult {
        switch argument {
        case "on": context.options.marbles = true
        case "off": context.options.marbles = false
        case "":
            // A paused run is the one being looked at.
            if context.stepper.stepping != nil {
                context.stepper.showPause(in: context)
                return .ok
            }
            guard let last = context.last else { return context.commandError(.nothingRecorded("no pipeline has run yet"), at: location) }
            guard let lines = context.diagramLines(last.record) else {
                return context.commandError(.nothingRecorded("the last run was not recorded (:marbles on records the next ones)"), at: location)
            }
            context.say(lines.joined(separator: "\n"))
            return .ok
        default:
            guard let id = ShellCommand.jobNumber(argument) else {
                return context.usage(":marbles on|off|N", at: location)
            }
            guard let recorder = context.jobs.recorder(id) else {
                return context.commandError(.noSuchJob("no job \(id)"), at: location)
            }
            guard let lines = context.diagramLines(recorder.partialSnapshot) else {
                return context.commandError(.nothingRecorded("job \(id) was not recorded (it started with :marbles off)"), at: location)
            }
            context.say(lines.joined(separator: "\n"))
            return .ok
        }
        context.say(context.style.dim("marbles are \(context.options.marbles ? "on" : "off")"))
        return .ok
    }

    /// `:export OUT.svg`: the last run's diagram as a standalone SVG.
    static func export(_ path: String, at location: SourceLocation, in context: CommandContext) -> StepResult {
        guard !path.isEmpty else { return context.usage(":export FILE.svg", at: location) }
        guard let last = context.last else { return context.commandError(.nothingRecorded("no pipeline has run yet"), at: location) }
        let run = last.record.marbles.snapshot(endingAt: EventFormatter.nanoseconds(last.record.duration))
        guard !run.lanes.isEmpty else {
            return context.commandError(.nothingRecorded("the last run was not recorded (:marbles on records the next ones)"), at: location)
        }
        if let problem = StatementRunner.writeSVG([run], titles: [last.text], to: path) { return context.commandError(.cannotWriteFile(problem), at: location) }
        context.say(context.style.dim("wrote \(path)"))
        return .ok
    }
}
