import JSONCore
import VMProtocol
import ViewModelKit

/// `vm.tape`, and the recorder `vm.create {record: true}` attaches (TapeRecorder.swift).
extension Server {
    func tape(_ call: Call) throws -> Outcome {
        let params = try VMTapeMethod.Params(call.params)
        let instance = try host.instance(params.instance)
        guard let recorder = (instance.attachment as? InstanceRecord)?.recorder else {
            throw WireError.notRecording(instance: instance.id)
        }
        return .encoded(recorder.encodedResult())
    }

    /// Attaches a recorder to `instance`, just created from `args` (its record made already),
    /// before anything it emitted at creation is delivered.
    func startRecording(_ instance: ViewModelInstance, args: JSONValue?) {
        guard let record = instance.attachment as? InstanceRecord else { return }
        let scheduler = scheduler
        record.recorder = TapeRecorder(instance: instance, args: args, clock: { scheduler.now })
    }
}
