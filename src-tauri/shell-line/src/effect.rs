//! The facts a command card states about a command line ([`Effect`]), with the values they
//! name; found by [`super::effects`], worded by the core's `command_line::effect_words`.

/// What a path a command names is, looked up when the card is made.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathKind {
    /// A file (or a link, or anything else that is not a folder) in the folder.
    File,
    /// A folder in the folder.
    Folder,
    /// Nothing has that name now (or it is outside the folder).
    Missing,
    /// A name only the shell makes when it runs (a variable, a pattern such as `*.jpg`, `~`).
    Pattern,
}

/// A path a command names, as written, and what it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Target {
    /// The name exactly as the command gives it (quotes removed).
    pub name: String,
    /// What it is on disk now.
    pub kind: PathKind,
}

/// One thing a command line does that matters. Values are names as the command gives them.
///
/// Not `#[non_exhaustive]`: the core words every effect in one exhaustive `match`
/// (`command_line::effect_words`), so that a new effect does not build until it is worded.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Effect {
    /// It runs what it downloads (`curl … | sh`, `sh -c "$(curl …)"`, `bash <(wget …)`).
    RunsDownloaded {
        /// The hosts it downloads from (empty when not named).
        hosts: Vec<String>,
    },
    /// Shell features (variables, substitutions, patterns, redirections) whose result only
    /// shows when it runs.
    ShellFeatures,
    /// It makes the commands it runs while running: `how` is the program word or the way
    /// (`$X`, `eval`, `sh -c`, `alias`, `git -c`).
    BuildsCommands {
        /// How, as written.
        how: String,
    },
    /// Programs Ask First does not know, in order.
    Unknown {
        /// Their names.
        programs: Vec<String>,
    },
    /// It first changes to another folder (`cd /tmp`, `cd ..`, `cd` alone).
    LeavesFolder {
        /// Where to, as written (`~` for `cd` alone).
        to: String,
    },
    /// `rm` of named paths.
    Deletes {
        /// What it names.
        targets: Vec<Target>,
        /// With `-r`: folders and everything in them.
        recursive: bool,
    },
    /// `rm` of names it gets from its input (`xargs rm`, `find -exec rm {}`).
    DeletesWhatItIsGiven,
    /// `find … -delete`.
    DeletesWhatItFinds,
    /// `rmdir`.
    DeletesEmptyFolders {
        /// The folders.
        names: Vec<String>,
    },
    /// `shred`.
    Destroys {
        /// The files.
        names: Vec<String>,
    },
    /// Writes one file (a redirection, `tee`, `dd of=`).
    Writes {
        /// The file.
        name: String,
        /// Adds to its end rather than replacing it.
        appends: bool,
    },
    /// Changes files (`truncate`, `find -fprint`).
    WritesFiles {
        /// The files.
        names: Vec<String>,
    },
    /// A path outside the workspace folder.
    Outside {
        /// As written.
        name: String,
        /// Whether the command writes (or deletes, moves, changes) it; else it reads it.
        writes: bool,
        /// Whether it is a place confinement hides (home folders, `/tmp`, `/run`, …): it
        /// sees an empty private folder there, and what it writes there is thrown away.
        hidden: bool,
    },
    /// `mv`.
    Moves {
        /// Its operands.
        names: Vec<String>,
    },
    /// `cp`.
    Copies {
        /// Its operands.
        names: Vec<String>,
    },
    /// `chmod`.
    Permissions {
        /// The files.
        names: Vec<String>,
    },
    /// `chown`, `chgrp`.
    Owner {
        /// The files.
        names: Vec<String>,
    },
    /// `kill`, `pkill`, `killall`.
    StopsPrograms {
        /// The program.
        program: String,
    },
    /// `sudo` and the like.
    Administrator {
        /// The program.
        program: String,
    },
    /// Downloads (`curl`, `wget`, `git clone`, `cargo install`).
    Downloads {
        /// The program (with its subcommand).
        program: String,
        /// The hosts named (empty when none is).
        hosts: Vec<String>,
    },
    /// Sends data out (`curl -d`, `scp`, `ssh`, `git push`, `npm publish`).
    Sends {
        /// The program (with its subcommand).
        program: String,
        /// The hosts named (empty when none is).
        hosts: Vec<String>,
    },
    /// `git push --force`.
    ReplacesRemote,
    /// `git reset --hard`, `git checkout -- …`.
    DiscardsChanges {
        /// The command.
        command: String,
    },
    /// `git clean`.
    DeletesUntracked,
    /// Runs in the background: a lone `&` (`program` `None`) or `nohup`, `setsid`, ….
    Background {
        /// The program that puts it there, if any.
        program: Option<String>,
    },
    /// Keeps running until stopped (`tail -f`, `watch`, `sleep 600`, `while true`, a server).
    KeepsRunning {
        /// What does.
        program: String,
    },
    /// Runs a script file.
    RunsScript {
        /// The script.
        script: String,
    },
    /// A shell or interpreter that runs what it reads from its input.
    RunsItsInput {
        /// The program.
        program: String,
    },
    /// Code given on the command line (`python3 -c`, `node -e`).
    RunsCode {
        /// The language's program.
        language: String,
    },
    /// A build (`make`, `cargo build`).
    RunsBuild {
        /// The command.
        command: String,
    },
    /// A program from the workspace folder (`./configure`).
    RunsProgram {
        /// As written.
        path: String,
    },
    /// `npm install` and the like: packages whose install scripts run.
    InstallsPackages {
        /// The command.
        command: String,
    },
    /// `npx`, `npm exec`.
    RunsPackage {
        /// The command.
        command: String,
    },
    /// `npm run build`.
    RunsProjectScript {
        /// The script's name.
        script: String,
        /// The command.
        command: String,
    },
    /// `pip install`, `apt-get install`, ….
    InstallsSoftware {
        /// The command.
        command: String,
    },
    /// `docker run`, ….
    Containers {
        /// The command.
        command: String,
    },
    /// More effects than the card lists.
    More {
        /// How many more.
        count: usize,
    },
}
