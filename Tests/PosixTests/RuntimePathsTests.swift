import Posix
import Testing

@Suite("Runtime paths")
struct RuntimePathsTests {
    @Test("the --socket flag wins over everything")
    func flagWins() {
        let choice = RuntimePaths.socket(
            flag: "/x/flag.sock", environment: ["VMD_SOCKET": "/x/env.sock", "XDG_RUNTIME_DIR": "/run/user/7"], uid: 7)
        #expect(choice == .init(path: "/x/flag.sock", source: .flag))
    }

    @Test("VMD_SOCKET wins over XDG_RUNTIME_DIR")
    func environmentWins() {
        let choice = RuntimePaths.socket(
            flag: nil, environment: ["VMD_SOCKET": "/x/env.sock", "XDG_RUNTIME_DIR": "/run/user/7"], uid: 7)
        #expect(choice == .init(path: "/x/env.sock", source: .vmdSocket))
    }

    @Test("XDG_RUNTIME_DIR holds vmd.sock when set")
    func runtimeDirectory() {
        let choice = RuntimePaths.socket(flag: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/7/"], uid: 7)
        #expect(choice == .init(path: "/run/user/7/vmd.sock", source: .runtimeDirectory))
    }

    @Test("without any setting the socket is /tmp/vmd-UID/vmd.sock; empty and relative values are ignored",
          arguments: [[String: String](), ["VMD_SOCKET": "", "XDG_RUNTIME_DIR": ""], ["XDG_RUNTIME_DIR": "relative/dir"]])
    func fallback(environment: [String: String]) {
        let choice = RuntimePaths.socket(flag: "", environment: environment, uid: 1000)
        #expect(choice == .init(path: "/tmp/vmd-1000/vmd.sock", source: .fallback))
    }

    @Test("state lives in XDG_STATE_HOME/vmd, else HOME/.local/state/vmd")
    func stateDirectory() {
        #expect(RuntimePaths.stateDirectory(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])
            == .init(path: "/s/vmd", source: .stateHome))
        #expect(RuntimePaths.stateDirectory(environment: ["HOME": "/h"])
            == .init(path: "/h/.local/state/vmd", source: .home))
        #expect(RuntimePaths.stateDirectory(environment: [:]) == nil)
    }

    @Test("configuration lives in XDG_CONFIG_HOME/vmd, else HOME/.config/vmd")
    func configDirectory() {
        #expect(RuntimePaths.configDirectory(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"])
            == .init(path: "/c/vmd", source: .configHome))
        #expect(RuntimePaths.configDirectory(environment: ["XDG_CONFIG_HOME": "", "HOME": "/h"])
            == .init(path: "/h/.config/vmd", source: .home))
    }

    @Test("a daemon under another name keeps the socket rule but uses its own file and directory names")
    func anotherName() {
        #expect(RuntimePaths.socket(flag: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/7"], uid: 7, fileName: "inboxd.sock")
            == .init(path: "/run/user/7/inboxd.sock", source: .runtimeDirectory))
        #expect(RuntimePaths.socket(flag: nil, environment: [:], uid: 7, fileName: "inboxd.sock")
            == .init(path: "/tmp/vmd-7/inboxd.sock", source: .fallback))
        #expect(RuntimePaths.socket(flag: nil, environment: ["VMD_SOCKET": "/x/env.sock"], uid: 7, fileName: "inboxd.sock")
            == .init(path: "/x/env.sock", source: .vmdSocket))
        #expect(RuntimePaths.stateDirectory(environment: ["HOME": "/h"], name: "inboxd")
            == .init(path: "/h/.local/state/inboxd", source: .home))
        #expect(RuntimePaths.configDirectory(environment: ["XDG_CONFIG_HOME": "/c"], name: "inboxd")
            == .init(path: "/c/inboxd", source: .configHome))
    }
}
