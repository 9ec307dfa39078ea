//! The names of files and folders our own command's words give that do not exist when it
//! starts ([`NewNames::read`]). The sandbox keeps what a rule about writing or moving is about
//! read-only only where it exists; a file the command makes by naming it is judged from these
//! names instead (`Rule::made_by_name`), read as `sh` (dash) reads the line, and on the safe
//! side where the reading cannot tell.
//!
//! Not read (the README says so): a name built from a variable or inside code, files a copy
//! or an archive brings with a folder, a name through a link the same line makes, and brace
//! expansion where `sh` is bash.

use globset::GlobBuilder;
use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

/// The most entries of folders read in one reading, to find what the shell expands patterns
/// to; past it, the reading gives up ([`NewNames::past_bounds`]).
const EXPANSION_CAP: usize = 200_000;
/// The most entries matched against patterns in one reading (each folder is read once, and
/// matched once for each pattern); past it, the reading gives up.
const MATCHES_CAP: usize = 2_000_000;
/// The most paths of the workspace looked at, over all quoted patterns of a reading (each
/// pattern looks at them all, but matches only those whose ending fits: `MATCHES_CAP`).
const SCANS_CAP: usize = 20_000_000;
/// The most entries of the workspace looked through, once, for what quoted patterns match;
/// past them, a quoted pattern counts as a name as it is.
const WORKSPACE_CAP: usize = 50_000;
/// The most folders names are read from (the workspace and where `cd`s lead).
const BASES_CAP: usize = 64;
/// The most names (a word read from a folder) looked at on disk; past them the reading gives
/// up and every rule about writing or moving holds ([`NewNames::past_bounds`]).
const NAMES_CAP: usize = 20_000;

/// What a command line names that does not exist yet, relative to the workspace.
#[derive(Debug, Default)]
pub(super) struct NewNames {
    /// The names, as rules read paths (`Work/may.pdf`), each once.
    pub(super) names: Vec<String>,
    /// The words (read from the workspace) whose pattern the shell expands to what exists:
    /// they name only that, which the sandbox keeps.
    pub(super) expanded: HashSet<String>,
    /// The line gives more names or folders than are looked at ([`BASES_CAP`],
    /// [`NAMES_CAP`]): any of them may be new.
    pub(super) past_bounds: bool,
    /// The words read from a folder that cannot be told (`cd "$D"`, `cd -`): each may be
    /// made in any folder of the workspace ([`Self::anywhere`]).
    pub(super) anywhere: Vec<String>,
    /// The workspace's folders, relative to it (the workspace itself as ``), when a word is
    /// read from a folder that cannot be told.
    pub(super) folders: Vec<PathBuf>,
}

/// The most (folder, word) pairs [`NewNames::anywhere`] matches a rule against; past them,
/// any may be one the rule is about.
const ANYWHERE_CAP: usize = 200_000;

impl NewNames {
    /// Whether `matches` holds for one of the names a word read from a folder that cannot be
    /// told may make (the word in each folder of the workspace), or there are more of them
    /// than [`ANYWHERE_CAP`].
    pub(super) fn anywhere(&self, matches: impl Fn(&str) -> bool) -> bool {
        if self.anywhere.is_empty() {
            return false;
        }
        if self.folders.len().saturating_mul(self.anywhere.len()) > ANYWHERE_CAP {
            return true;
        }
        self.folders.iter().any(|folder| {
            self.anywhere
                .iter()
                .any(|word| folder.join(word).to_str().is_some_and(&matches))
        })
    }
}

impl NewNames {
    /// The names the command `line`, run in the folder `root` (canonical), gives of what is
    /// not there yet:
    /// - every word of its commands (also inside `sh -c`, after wrappers and shell keywords),
    ///   each value glued to an option (`-oout.pdf`, `--output=out.pdf`) and each
    ///   redirection's target; not a program's own name, `cd`'s folder, an option (`-x`,
    ///   though `./-x` is a name) or a cluster of one-letter flags (`-sh`), a word with a
    ///   variable or substitution, nor a line a shell runs (`sh -c 'ls *.pdf'`'s `ls *.pdf`);
    ///   a line given to a shell is also read with bash's brace expansion (`bash -c`);
    /// - read from the workspace and from every folder a `cd` (or `pushd`, `env -C`) leads to,
    ///   from the workspace and from where the `cd`s before it led, whether it exists yet or
    ///   not, through a link as far as it exists, and its pattern expanded; `..` by name, and
    ///   a name that leads out of the workspace is left out (our command cannot write there);
    ///   after a single `cd DIR &&` that nothing else can step around, only from `DIR`;
    /// - a pattern the shell expands (`*`, `?`, not quoted) names what it matches in any of
    ///   those folders, which exists; where it matches nothing, the word stays as it is
    ///   (`touch r*.pdf` makes `r*.pdf`). As it is always: in a redirection's target (which
    ///   `sh` does not expand), after `set -f` or `set -o noglob`, with a bracket (`[…]`, read
    ///   differently by shells), glued to an option that does not expand as a whole word, and
    ///   ending in `/` unless it matches a folder;
    /// - a quoted pattern (`'*.pdf'`) is a name as it is, unless it matches something in the
    ///   workspace: then it is taken as given to a program that matches it (`find -name`,
    ///   `grep --include`), not as a file to make. (A quoted `touch '*.pdf'` beside PDFs is
    ///   therefore not judged; a bracket, `touch 'a[1].pdf'`, always is.)
    /// - a copy, move or link into a folder that exists (`cp a.pdf Work/`, `mv -t Work a.pdf`)
    ///   names `Work/a.pdf`.
    pub(super) fn read(root: &Path, line: &str) -> Self {
        let mut said = crate::command_line::names_in(line);
        // Braces are letters where commands run (dash; bash with `+B`), but the lenient reading
        // cuts at them: each line is read as the shell splits words too (`touch x{y}.pdf`).
        if line.contains('{') {
            let more: Vec<Vec<String>> = line
                .lines()
                .filter_map(|one| shell_words::split(one).ok())
                .collect();
            said.wrapped.extend(more.iter().map(|_| false));
            said.commands.extend(more);
        }
        // A line given to bash (`bash -c 'touch x.{pdf,txt}'`) has its braces expanded there
        // whatever `sh` is: each such line's words are read expanded too.
        let expanded: Vec<Vec<String>> = said
            .scripts
            .iter()
            .filter(|script| script.contains('{'))
            .flat_map(|script| script.lines())
            .filter_map(|one| shell_words::split(one).ok())
            .map(|words| words.iter().flat_map(|w| brace_expanded(w)).collect())
            .collect();
        said.wrapped.extend(expanded.iter().map(|_| false));
        said.commands.extend(expanded);
        let mut reading = Reading {
            root,
            bases: vec![PathBuf::new()],
            noglob: false,
            unknown_folder: goes_to_a_variable(line),
            out: NewNames::default(),
            seen: HashSet::new(),
            looked: 0,
            folders: Folders::default(),
            workspace: None,
            made_links: Vec::new(),
        };
        reading.find_links(&said.commands);
        reading.find_bases(&said.commands);
        // `cd Docs && pdfinfo a.pdf`: everything after the one `cd` runs in its folder (or
        // nothing runs), so words are not read from the workspace too.
        if only_after_one_cd(line, &said.commands) {
            reading.bases.retain(|base| !base.as_os_str().is_empty());
        }
        reading.noglob = said.commands.iter().any(|words| turns_globbing_off(words));
        let quoted = Quoted::of(&said);
        for (at, words) in said.commands.iter().enumerate() {
            // A wrapper's command is read on its own (`sudo rm x` as `rm x`); its program (the
            // first word) runs and makes nothing: `cd Reports && ls` names no `Reports/ls`.
            if said.wrapped.get(at).copied().unwrap_or(false) {
                continue;
            }
            // `cd`'s folder is gone to, not made (it is read as a folder names come from).
            if matches!(
                words.first().map(String::as_str),
                Some("cd" | "pushd" | "popd")
            ) {
                continue;
            }
            for word in words.iter().skip(1) {
                // A line a shell runs is read as commands of its own, not as a name.
                if quoted.scripts.contains(word.as_str()) {
                    continue;
                }
                reading.word(word, Quoting::of(word, &quoted), false);
            }
            reading.copied_into_folder(words, &quoted);
        }
        for target in &said.targets {
            reading.word(target, Quoting::of(target, &quoted), true);
        }
        if reading.unknown_folder {
            reading.out.anywhere.sort();
            reading.out.anywhere.dedup();
            let root = reading.root;
            match reading.workspace.get_or_insert_with(|| every_path(root)) {
                Some(paths) => {
                    reading.out.folders = std::iter::once(PathBuf::new())
                        .chain(paths.iter().filter(|p| root.join(p).is_dir()).cloned())
                        .collect();
                }
                None => reading.out.past_bounds = true,
            }
        }
        if reading.folders.spent() {
            reading.out.past_bounds = true;
        }
        reading.out
    }
}

/// The words of [`crate::command_line::Names`] whose special characters are quoted, and the
/// lines a shell runs, as sets: looked up once for each word of the line.
struct Quoted<'a> {
    patterns: HashSet<&'a str>,
    mixed: HashSet<&'a str>,
    dollars: HashSet<&'a str>,
    scripts: HashSet<&'a str>,
}

impl<'a> Quoted<'a> {
    fn of(said: &'a crate::command_line::Names) -> Self {
        let set = |words: &'a [String]| words.iter().map(String::as_str).collect();
        Self {
            patterns: set(&said.quoted_patterns),
            mixed: set(&said.mixed_patterns),
            dollars: set(&said.quoted_dollars),
            scripts: set(&said.scripts),
        }
    }
}

/// How the shell reads the special characters of one word ([`crate::command_line::Names`]).
#[derive(Debug, Clone, Copy)]
struct Quoting {
    /// Every pattern character (`*`, `?`, `[`) was quoted: they are letters.
    patterns_quoted: bool,
    /// Some pattern characters were quoted and others not.
    patterns_mixed: bool,
    /// Every `$` and backquote was quoted: they are letters, not a variable.
    dollars_quoted: bool,
}

impl Quoting {
    fn of(word: &str, quoted: &Quoted<'_>) -> Self {
        Self {
            patterns_quoted: quoted.patterns.contains(word),
            patterns_mixed: quoted.mixed.contains(word),
            dollars_quoted: quoted.dollars.contains(word),
        }
    }
}

/// The state of one [`NewNames::read`].
struct Reading<'a> {
    root: &'a Path,
    /// The folders names are read from, relative to `root` (the workspace first).
    bases: Vec<PathBuf>,
    /// `set -f`: no pattern is expanded.
    noglob: bool,
    /// A `cd` goes to a folder that cannot be told (a variable, `cd -`, `popd`): every word
    /// may also be read from any folder ([`NewNames::anywhere`]).
    unknown_folder: bool,
    out: NewNames,
    /// The names looked at on disk so far.
    seen: HashSet<PathBuf>,
    /// How many (word, folder) names were looked at.
    looked: usize,
    /// The folders listed to expand patterns.
    folders: Folders,
    /// Every path in the workspace, relative to it, once looked through (`None` in the
    /// list: past [`WORKSPACE_CAP`]).
    workspace: Option<Option<Vec<PathBuf>>>,
    /// The links `ln` makes in the line, relative to `root`: what lies under one, or `..`
    /// after one, cannot be read from the letters.
    made_links: Vec<PathBuf>,
}

impl Reading<'_> {
    /// The links the `ln` commands of `commands` make, read from the workspace (`ln -s T L`,
    /// `ln -s T1 T2 DIR`, `ln -s -t DIR T`).
    fn find_links(&mut self, commands: &[Vec<String>]) {
        for words in commands {
            let Some((program, args)) = words.split_first() else {
                continue;
            };
            if program.rsplit('/').next() != Some("ln") {
                continue;
            }
            let (operands, folder) = operands_and_folder(args);
            let made: Vec<PathBuf> = match (folder, operands.as_slice()) {
                (Some(folder), targets) => targets
                    .iter()
                    .filter_map(|t| Path::new(t).file_name())
                    .map(|n| Path::new(folder).join(n))
                    .collect(),
                (None, [target]) => Path::new(target)
                    .file_name()
                    .map(PathBuf::from)
                    .into_iter()
                    .collect(),
                (None, [targets @ .., last]) => {
                    let mut made = vec![PathBuf::from(last)];
                    made.extend(
                        targets
                            .iter()
                            .filter_map(|t| Path::new(t).file_name())
                            .map(|n| Path::new(last).join(n)),
                    );
                    made
                }
                (None, []) => Vec::new(),
            };
            for link in made {
                if let Some(Named::Inside(link)) =
                    link.to_str().map(|l| self.named(Path::new(""), l))
                {
                    self.made_links.push(link);
                }
            }
        }
    }

    /// `word` read from the folder `base` (see [`Named`]): `.` and `..` by name, except that
    /// `..` after a link that exists goes up from where the link leads, and a name under a
    /// link the line makes, or `..` after one, cannot be read. An absolute word inside the
    /// workspace is read relative to it.
    fn named(&self, base: &Path, word: &str) -> Named {
        let home;
        let word = match word.strip_prefix('~') {
            // `~/…`: the home folder (`~user` is another's, outside).
            Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                match std::env::var_os("HOME") {
                    Some(dir) => {
                        home = format!("{}{rest}", dir.to_string_lossy());
                        home.as_str()
                    }
                    None => return Named::Outside,
                }
            }
            Some(_) => return Named::Outside,
            None if word.starts_with('$') => return Named::Outside,
            None => word,
        };
        let word = Path::new(word);
        // Read as an absolute path (the workspace's own path is real: `..` out of it and back
        // in, `../ws/x.pdf`, lands inside it again), then taken relative to the workspace.
        let start = if word.is_absolute() {
            word.to_path_buf()
        } else {
            self.root.join(base).join(word)
        };
        let mut path = PathBuf::new();
        let mut under_made_link = false;
        for part in start.components() {
            match part {
                Component::Normal(part) => {
                    under_made_link |= path
                        .strip_prefix(self.root)
                        .is_ok_and(|inside| self.made_links.iter().any(|l| l == inside));
                    path.push(part);
                }
                Component::CurDir => {}
                Component::ParentDir => {
                    if let Ok(inside) = path.strip_prefix(self.root) {
                        if under_made_link || self.made_links.iter().any(|l| l == inside) {
                            return Named::Unreadable;
                        }
                        let here = path.clone();
                        if std::fs::symlink_metadata(&here)
                            .is_ok_and(|m| m.file_type().is_symlink())
                        {
                            match std::fs::canonicalize(&here) {
                                Ok(real) => path = real,
                                Err(_) => return Named::Outside,
                            }
                        }
                    }
                    path.pop();
                }
                Component::RootDir => path.push("/"),
                Component::Prefix(_) => return Named::Outside,
            }
        }
        match path.strip_prefix(self.root) {
            Ok(_) if under_made_link => Named::Unreadable,
            Ok(inside) => Named::Inside(inside.to_path_buf()),
            Err(_) => Named::Outside,
        }
    }

    /// [`Self::named`] as a path inside the workspace; `None` outside it, and where it cannot
    /// be read (the reading then gives up: [`NewNames::past_bounds`]).
    fn name_within(&mut self, base: &Path, word: &str) -> Option<PathBuf> {
        match self.named(base, word) {
            Named::Inside(name) => Some(name),
            Named::Outside => None,
            Named::Unreadable => {
                self.out.past_bounds = true;
                None
            }
        }
    }

    /// Every folder a `cd`, `pushd` or `env -C` of `commands` leads to, in order.
    fn find_bases(&mut self, commands: &[Vec<String>]) {
        let mut here = Some(PathBuf::new());
        for words in commands {
            if goes_back(words) {
                self.unknown_folder = true;
                continue;
            }
            let Some(to) = folder_gone_to(words) else {
                continue;
            };
            let mut found: Vec<PathBuf> = Vec::new();
            for from in [Some(PathBuf::new()), here.clone()].into_iter().flatten() {
                found.extend(self.folders_named(&from, to));
            }
            here = here.and_then(|here| self.folders_named(&here, to).into_iter().next());
            for base in found {
                if !self.bases.contains(&base) {
                    if self.bases.len() >= BASES_CAP {
                        self.out.past_bounds = true;
                        return;
                    }
                    self.bases.push(base);
                }
            }
        }
    }

    /// The folders `word` names read from `base`: by name (whether it exists or not), where
    /// it leads through links as far as it exists, and, for a pattern, each folder it
    /// matches.
    fn folders_named(&mut self, base: &Path, word: &str) -> Vec<PathBuf> {
        let Some(name) = self.name_within(base, word) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        if word.contains(['*', '?']) && !word.contains('[') && !self.noglob {
            found.extend(self.folders.expand(self.root, &name, true));
        }
        if let Some(real) = through_links(self.root, &name) {
            found.push(real);
        }
        found.push(name);
        found
    }

    /// Judges one word, read by the shell as `quoting` says (`target`: a redirection's
    /// target, which the shell does not expand).
    fn word(&mut self, word: &str, quoting: Quoting, target: bool) {
        let has_pattern = word.contains(['*', '?', '[']);
        let plain = !quoting.patterns_quoted && !quoting.patterns_mixed;
        // A pattern the shell expands: to what exists, in some folder the command is in.
        if has_pattern && plain && !target && !self.noglob && !word.contains('[') {
            let names: Vec<PathBuf> = self
                .bases
                .clone()
                .iter()
                .filter_map(|base| self.name_within(base, word))
                .collect();
            let dirs_only = word.ends_with('/');
            let (root, folders) = (self.root, &mut self.folders);
            if names
                .iter()
                .any(|name| !folders.expand(root, name, dirs_only).is_empty())
            {
                if let Some(text) = self
                    .name_within(Path::new(""), word)
                    .and_then(|n| n.to_str().map(str::to_owned))
                {
                    self.out.expanded.insert(text);
                }
                return;
            }
        }
        // A quoted pattern that matches something in the workspace is given to a program
        // that matches it (`find -name '*.pdf'`, `--include='*.pdf'`).
        if has_pattern && quoting.patterns_quoted && !target && !word.contains('[') {
            let pattern = match word.split_once('=') {
                Some((option, value)) if option.starts_with('-') => value,
                _ => word,
            };
            if self.matches_in_workspace(pattern) {
                return;
            }
        }
        // A cluster of one-letter flags (`-sh`, `-la`, `-xzf`) glues no name: a value of one
        // or two letters after a short option is taken for flags (`sort -oab` makes `ab`
        // unjudged; `-oout`, `-oa.pdf` are names).
        let flags = word.starts_with('-') && !word.starts_with("--") && !word.contains('=');
        for value in crate::tools::with_glued_values(word) {
            if (flags
                && value != word
                && value.len() <= 2
                && value.chars().all(|c| c.is_ascii_alphabetic()))
                || value.is_empty()
                || value.starts_with('-')
                || value.contains('\0')
                || (value.contains(['$', '`']) && !quoting.dollars_quoted)
            {
                continue;
            }
            // A quoted `$` is a letter, also first (`'$a.pdf'`).
            let dotted;
            let value = if value.starts_with('$') {
                dotted = format!("./{value}");
                dotted.as_str()
            } else {
                value
            };
            if self.unknown_folder {
                self.out.anywhere.push(value.to_owned());
            }
            for at in 0..self.bases.len() {
                self.looked += 1;
                if self.looked > NAMES_CAP {
                    self.out.past_bounds = true;
                    return;
                }
                let base = self.bases[at].clone();
                let Some(name) = self.name_within(&base, value) else {
                    continue;
                };
                self.name(name);
            }
        }
    }

    /// Whether the quoted pattern `pattern` (`*.pdf`, `Work/*.pdf`) matches the name or the
    /// path of anything in the workspace (looked through once per reading, up to
    /// [`WORKSPACE_CAP`] entries; past them, or for a pattern that cannot be read, `false`).
    fn matches_in_workspace(&mut self, pattern: &str) -> bool {
        let Some(glob) = part_glob(pattern.trim_start_matches("./")) else {
            return false;
        };
        let root = self.root;
        let Some(paths) = self.workspace.get_or_insert_with(|| every_path(root)) else {
            return false;
        };
        // Each path looked at takes one of the reading's scans (`SCANS_CAP`), and each one
        // matched against the pattern (its ending fits) one of its matches (`MATCHES_CAP`).
        if self.folders.scanned < paths.len() {
            self.folders.scanned = 0;
            return false;
        }
        self.folders.scanned -= paths.len();
        let tail = pattern.rsplit('/').next().unwrap_or(pattern);
        let last = tail.rfind(['*', '?']).map_or(tail.len(), |at| at + 1);
        let ends = &tail[last..];
        let matched = &mut self.folders.matched;
        paths.iter().any(|path| {
            let text = path.to_string_lossy();
            if !text.ends_with(ends) || *matched == 0 {
                return false;
            }
            *matched -= 1;
            glob.is_match(text.as_ref())
                || path
                    .file_name()
                    .is_some_and(|name| glob.is_match(name.to_string_lossy().as_ref()))
        })
    }

    /// Counts `name` (relative to the workspace) when it does not exist.
    fn name(&mut self, name: PathBuf) {
        if name.as_os_str().is_empty() || !self.seen.insert(name.clone()) {
            return;
        }
        if std::fs::symlink_metadata(self.root.join(&name)).is_ok() {
            return;
        }
        if let Some(text) = name.to_str() {
            self.out.names.push(text.to_owned());
        }
    }

    /// For `cp`, `mv`, `ln` and `install` into a folder that exists (`-t DIR`,
    /// `--target-directory=DIR`, or the last operand): the name each source takes there.
    fn copied_into_folder(&mut self, words: &[String], quoted: &Quoted<'_>) {
        let Some((program, args)) = words.split_first() else {
            return;
        };
        let program = program.rsplit('/').next().unwrap_or(program);
        if !matches!(program, "cp" | "mv" | "ln" | "install") {
            return;
        }
        let (mut operands, folder) = operands_and_folder(args);
        let folder = match folder {
            Some(folder) => folder,
            None if operands.len() >= 2 => operands.pop().unwrap_or_default(),
            None => return,
        };
        for at in 0..self.bases.len() {
            let base = self.bases[at].clone();
            // The folder as named, through links, and what its pattern matches.
            let intos: Vec<PathBuf> = self
                .folders_named(&base, folder)
                .into_iter()
                .filter(|into| self.root.join(into).is_dir())
                .collect();
            for into in intos {
                for source in &operands {
                    let unquoted_pattern = source.contains(['*', '?', '['])
                        && !quoted.patterns.contains(source)
                        && !self.noglob;
                    let sources: Vec<PathBuf> = match self.name_within(&base, source) {
                        Some(name) if unquoted_pattern => {
                            let found = self.folders.expand(self.root, &name, false);
                            if found.is_empty() {
                                vec![name]
                            } else {
                                found
                            }
                        }
                        Some(name) => vec![name],
                        None => vec![PathBuf::from(source)],
                    };
                    for source in sources {
                        if let Some(file_name) = source.file_name() {
                            self.looked += 1;
                            if self.looked > NAMES_CAP {
                                self.out.past_bounds = true;
                                return;
                            }
                            self.name(into.join(file_name));
                        }
                    }
                }
            }
        }
    }
}

/// The operands of `cp`, `mv`, `ln` or `install` (`args`: the words after the program), and
/// the folder `-t DIR` names, as GNU's option reading takes it: in a cluster (`-vt DIR`,
/// `-vtDIR`), and `--target-directory` shortened to any of its beginnings (`--target=DIR`,
/// `--targ DIR`). The values of the other options that take one (`-S`, `-m`, `-o`, `-g`, and
/// their long forms) are left out.
fn operands_and_folder(args: &[String]) -> (Vec<&str>, Option<&str>) {
    /// Short options that take a value (besides `-t`).
    const VALUED: [char; 4] = ['S', 'm', 'o', 'g'];
    /// Long options that take a value, besides `--target-directory`.
    const VALUED_LONG: [&str; 4] = ["--suffix", "--mode", "--owner", "--group"];
    let mut operands: Vec<&str> = Vec::new();
    let mut folder: Option<&str> = None;
    let mut args = args.iter();
    let mut options_end = false;
    while let Some(arg) = args.next() {
        let arg = arg.as_str();
        if options_end || !arg.starts_with('-') || arg == "-" {
            operands.push(arg);
        } else if arg == "--" {
            options_end = true;
        } else if let Some(long) = arg.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (long, None),
            };
            let name = format!("--{name}");
            let target = name.len() > 3 && "--target-directory".starts_with(&name);
            let valued = VALUED_LONG
                .iter()
                .any(|v| name.len() > 3 && v.starts_with(&name));
            if target || valued {
                let value = value.or_else(|| args.next().map(String::as_str));
                if target {
                    folder = value;
                }
            }
        } else {
            // A cluster of short options: the first that takes a value takes the rest of the
            // cluster, or the next word.
            let cluster = &arg[1..];
            if let Some(at) = cluster.find(|c: char| c == 't' || VALUED.contains(&c)) {
                let rest = &cluster[at + 1..];
                let value = if rest.is_empty() {
                    args.next().map(String::as_str)
                } else {
                    Some(rest)
                };
                if cluster[at..].starts_with('t') {
                    folder = value;
                }
            }
        }
    }
    (operands, folder)
}

/// Whether the simple command `words` goes back to a folder that cannot be told from the
/// line: `cd -` (the folder before), `popd`.
fn goes_back(words: &[String]) -> bool {
    match words {
        [cd, dash, ..] if (cd == "cd" || cd == "pushd") && dash == "-" => true,
        [popd, ..] => popd == "popd",
        _ => false,
    }
}

/// The most words one word's brace expansion gives ([`brace_expanded`]).
const BRACES_CAP: usize = 64;

/// `word` with bash's brace expansion (`x.{pdf,txt}` → `x.pdf`, `x.txt`; nested and several
/// groups too), up to [`BRACES_CAP`] words (past them, the rest are left out and the word is
/// kept as it is); a word without a group of alternatives stays as it is.
fn brace_expanded(word: &str) -> Vec<String> {
    let mut done = Vec::new();
    let mut todo = vec![word.to_owned()];
    while let Some(next) = todo.pop() {
        if done.len() + todo.len() >= BRACES_CAP {
            done.push(word.to_owned());
            break;
        }
        match brace_group(&next) {
            Some((open, close, commas)) => {
                let (head, tail) = (&next[..open], &next[close + 1..]);
                let mut from = open + 1;
                for at in commas.into_iter().chain([close]) {
                    todo.push(format!("{head}{}{tail}", &next[from..at]));
                    from = at + 1;
                }
            }
            None => done.push(next),
        }
    }
    done
}

/// The first `{…}` of `word` that holds a comma at its own depth: its braces' places and
/// those commas' places.
fn brace_group(word: &str) -> Option<(usize, usize, Vec<usize>)> {
    let bytes = word.as_bytes();
    for open in (0..bytes.len()).filter(|&i| bytes[i] == b'{') {
        let (mut depth, mut commas) = (0usize, Vec::new());
        for (at, &b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        if !commas.is_empty() {
                            return Some((open, at, commas));
                        }
                        break;
                    }
                }
                b',' if depth == 1 => commas.push(at),
                _ => {}
            }
        }
    }
    None
}

/// Whether `line` is one `cd` into a plain folder followed by `&&` and commands that all run
/// there: its first simple command is the only one that goes anywhere, and the line has no
/// other way to run a command elsewhere or regardless (`;`, `||`, `|`, `&`, a newline,
/// parentheses, braces, backquotes, `$`, and no quote that could hide one).
fn only_after_one_cd(line: &str, commands: &[Vec<String>]) -> bool {
    let [first, rest @ ..] = commands else {
        return false;
    };
    let plain = !line.contains([
        ';', '|', '\n', '(', ')', '{', '}', '`', '$', '\'', '"', '\\',
    ]) && line.replace("&&", "").find('&').is_none();
    plain
        && matches!(first.first().map(String::as_str), Some("cd"))
        && folder_gone_to(first).is_some_and(|to| !to.contains(['*', '?', '[']))
        && !rest
            .iter()
            .any(|words| folder_gone_to(words).is_some() || goes_back(words))
}

/// Whether `line` goes to a folder given by a variable or substitution: `cd`, `pushd` or
/// `env -C`/`--chdir` followed (after spaces, quotes and options) by `$` or a backquote
/// (`cd "$D"`, `cd $(dirname x)`, `` cd `pwd`/Work ``), which the lenient reading cuts or
/// cannot read.
fn goes_to_a_variable(line: &str) -> bool {
    let bytes = line.as_bytes();
    ["cd", "pushd", "-C", "--chdir"].iter().any(|word| {
        line.match_indices(word).any(|(at, _)| {
            let before = at.checked_sub(1).map(|i| bytes[i]);
            let starts_word = before.is_none_or(|b| {
                b.is_ascii_whitespace() || matches!(b, b';' | b'&' | b'|' | b'(' | b'{' | b'`')
            });
            let mut rest = line[at + word.len()..].trim_start_matches(['=', ' ', '\t']);
            // `cd -P "$D"`: past its options (a few: each `-C` of a line is looked at, so a
            // line of many stays linear).
            for _ in 0..4 {
                let Some(after) = rest.strip_prefix('-') else {
                    break;
                };
                rest = after
                    .trim_start_matches(|c: char| c.is_ascii_alphabetic() || c == '-')
                    .trim_start_matches([' ', '\t']);
            }
            starts_word && rest.trim_start_matches(['"', '\'']).starts_with(['$', '`'])
        })
    })
}

/// The folder a simple command goes to: `cd`'s or `pushd`'s operand (after its options and
/// `--`), or `env -C DIR` / `env --chdir=DIR`. `None` for `cd` alone (the home folder, outside
/// the workspace) and for any other command.
fn folder_gone_to(words: &[String]) -> Option<&str> {
    let (program, args) = words.split_first()?;
    match program.as_str() {
        "cd" | "pushd" => {
            let mut args = args.iter().map(String::as_str);
            let mut options_end = false;
            args.find(|arg| {
                if options_end {
                    return true;
                }
                if *arg == "--" {
                    options_end = true;
                    return false;
                }
                !arg.starts_with('-') || *arg == "-"
            })
            .filter(|arg| *arg != "-")
        }
        "env" => {
            // As GNU's option reading takes them: `-C DIR`, in a cluster (`-iC DIR`,
            // `-iCDIR`), and `--chdir` shortened (`--ch=DIR`, `--chd DIR`); the values of
            // `-u`/`--unset` and `-S`/`--split-string` are skipped.
            let mut args = args.iter().map(String::as_str);
            while let Some(arg) = args.next() {
                if arg == "--" || !arg.starts_with('-') || arg == "-" {
                    return None; // the command env runs (or its assignments)
                }
                if let Some(long) = arg.strip_prefix("--") {
                    let (name, value) = match long.split_once('=') {
                        Some((name, value)) => (name, Some(value)),
                        None => (long, None),
                    };
                    let is = |full: &str| name.len() >= 2 && full.starts_with(name);
                    if is("chdir") {
                        return value.or_else(|| args.next());
                    }
                    if (is("unset") || is("split-string")) && value.is_none() {
                        args.next();
                    }
                    continue;
                }
                let cluster = &arg[1..];
                if let Some(at) = cluster.find(['C', 'u', 'S']) {
                    let rest = &cluster[at + 1..];
                    let value = if rest.is_empty() {
                        args.next()
                    } else {
                        Some(rest)
                    };
                    if cluster[at..].starts_with('C') {
                        return value;
                    }
                }
            }
            None
        }
        _ => None,
    }
}

/// Whether `words` (a simple command) turn the shell's pattern expansion off: `set -f` (also
/// in a cluster, `set -euf`), `set -o noglob`.
fn turns_globbing_off(words: &[String]) -> bool {
    let Some((program, args)) = words.split_first() else {
        return false;
    };
    program == "set"
        && args.iter().enumerate().any(|(i, arg)| {
            (arg.starts_with('-') && !arg.starts_with("--") && arg[1..].contains('f'))
                || (arg == "-o" && args.get(i + 1).is_some_and(|v| v == "noglob"))
        })
}

/// A word read as a path in the workspace ([`Reading::named`]).
enum Named {
    /// The path, relative to the workspace.
    Inside(PathBuf),
    /// Outside the workspace (or `~`, a variable): our command cannot write there.
    Outside,
    /// Through a link the line itself makes: where it leads cannot be read.
    Unreadable,
}

/// Where `name` (relative to `root`) leads through links, as far as it exists, relative to
/// `root`; `None` where nothing of it exists beyond the workspace itself, it leads nowhere
/// else, or it leads out of the workspace.
fn through_links(root: &Path, name: &Path) -> Option<PathBuf> {
    let mut existing = root.join(name);
    let mut rest = Vec::new();
    let real = loop {
        if let Ok(real) = std::fs::canonicalize(&existing) {
            break real;
        }
        rest.push(existing.file_name()?.to_owned());
        existing = existing.parent()?.to_path_buf();
    };
    let mut within = real.strip_prefix(root).ok()?.to_path_buf();
    for part in rest.iter().rev() {
        within.push(part);
    }
    (within != name).then_some(within)
}

/// The folders one reading lists to expand patterns, each read from disk once, and how much
/// more it may read and match ([`EXPANSION_CAP`], [`MATCHES_CAP`]).
struct Folders {
    listed: HashMap<PathBuf, Vec<std::ffi::OsString>>,
    /// Entries that may still be read from disk.
    read: usize,
    /// Entries that may still be matched against a pattern.
    matched: usize,
    /// Paths of the workspace that may still be looked at for quoted patterns.
    scanned: usize,
}

impl Default for Folders {
    fn default() -> Self {
        Self {
            listed: HashMap::new(),
            read: EXPANSION_CAP,
            matched: MATCHES_CAP,
            scanned: SCANS_CAP,
        }
    }
}

impl Folders {
    /// Whether the reading ran out of what it may read, match or look at.
    fn spent(&self) -> bool {
        self.read == 0 || self.matched == 0 || self.scanned == 0
    }

    /// What the shell's expansion of the pattern characters of `name` (relative to `root`)
    /// finds, relative to `root` (`dirs_only`: only folders, for a word ending in `/`): each
    /// part with a pattern is matched against the entries of the folders found so far (a
    /// leading `.` only by a part that starts with one), as `sh` does. When the reading is
    /// [`Self::spent`], or for a pattern that cannot be read, nothing: the word then counts as
    /// a name as it is.
    fn expand(&mut self, root: &Path, name: &Path, dirs_only: bool) -> Vec<PathBuf> {
        let mut found = vec![PathBuf::new()];
        for part in name.components() {
            let part = part.as_os_str().to_string_lossy();
            if !part.contains(['*', '?', '[']) {
                found = found
                    .into_iter()
                    .map(|folder| folder.join(part.as_ref()))
                    .filter(|path| std::fs::symlink_metadata(root.join(path)).is_ok())
                    .collect();
                continue;
            }
            let Some(glob) = part_glob(&part) else {
                return Vec::new();
            };
            let mut next = Vec::new();
            for folder in &found {
                if !self.list(root, folder) {
                    return Vec::new();
                }
                let entries = &self.listed[folder];
                if self.matched < entries.len() {
                    self.matched = 0;
                    return Vec::new();
                }
                self.matched -= entries.len();
                // The letters before the first pattern character and after the last one, which
                // every match starts and ends with: most names are told apart by them alone.
                let first = part.find(['*', '?']).unwrap_or(part.len());
                let last = part.rfind(['*', '?']).map_or(part.len(), |at| at + 1);
                let (starts, ends) = (&part[..first], &part[last.max(first)..]);
                for file_name in entries {
                    let text = file_name.to_string_lossy();
                    if text.len() >= starts.len() + ends.len()
                        && text.starts_with(starts)
                        && text.ends_with(ends)
                        && (!text.starts_with('.') || part.starts_with('.'))
                        && glob.is_match(text.as_ref())
                    {
                        next.push(folder.join(file_name));
                    }
                }
            }
            found = next;
        }
        if dirs_only {
            found.retain(|path| root.join(path).is_dir());
        }
        found
    }

    /// Reads the names in the folder `folder` (relative to `root`) into [`Self::listed`],
    /// once (an unreadable folder has none); `false` once the reading may read no more.
    fn list(&mut self, root: &Path, folder: &Path) -> bool {
        if !self.listed.contains_key(folder) {
            let mut names = Vec::new();
            if let Ok(entries) = std::fs::read_dir(root.join(folder)) {
                for entry in entries.flatten() {
                    if self.read == 0 {
                        return false;
                    }
                    self.read -= 1;
                    names.push(entry.file_name());
                }
            }
            self.listed.insert(folder.to_path_buf(), names);
        }
        true
    }
}

/// One part of a path with `*` or `?` as a matcher of one name (braces and backslashes are
/// plain letters: the lenient reading cuts at unquoted braces and takes escapes away).
fn part_glob(part: &str) -> Option<globset::GlobMatcher> {
    let mut pattern = String::with_capacity(part.len());
    for c in part.chars() {
        if matches!(c, '{' | '}' | '\\' | '[' | ']') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    GlobBuilder::new(&pattern)
        .literal_separator(true)
        .build()
        .ok()
        .map(|g| g.compile_matcher())
}

/// Every path in the workspace `root`, relative to it (links not followed), or `None` past
/// [`WORKSPACE_CAP`] entries.
fn every_path(root: &Path) -> Option<Vec<PathBuf>> {
    let mut paths = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(folder) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(root.join(&folder)) else {
            continue;
        };
        for entry in entries.flatten() {
            if paths.len() >= WORKSPACE_CAP {
                return None;
            }
            let path = folder.join(entry.file_name());
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path.clone());
            }
            paths.push(path);
        }
    }
    Some(paths)
}

#[cfg(test)]
mod tests {
    use super::{brace_expanded, goes_to_a_variable};

    #[test]
    fn braces_expand_as_bash_expands_them() {
        let mut got = brace_expanded("x.{pdf,txt}");
        got.sort();
        assert_eq!(got, ["x.pdf", "x.txt"]);
        let mut got = brace_expanded("{a,b{1,2}}.{c,d}");
        got.sort();
        assert_eq!(got, ["a.c", "a.d", "b1.c", "b1.d", "b2.c", "b2.d"]);
        assert_eq!(brace_expanded("x{y}.pdf"), ["x{y}.pdf"]);
        assert_eq!(brace_expanded("}{,"), ["}{,"]);
        // Past the bound, the word is kept as it is among what was expanded.
        let many = brace_expanded("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}");
        assert!(many.len() <= super::BRACES_CAP + 1);
        assert!(many.contains(&"{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}".to_owned()));
    }

    #[test]
    fn a_folder_gone_to_by_a_variable_is_told_from_a_variable_elsewhere() {
        for line in [
            "cd \"$D\" && touch a.pdf",
            "cd $(echo Work) && touch a.pdf",
            "cd `pwd`/Work; touch a.pdf",
            "ls; cd -P \"$D\"; touch a.pdf",
            "env -C \"$W\" touch a.pdf",
            "env --chdir=$W touch a.pdf",
            "pushd '$D'",
        ] {
            assert!(goes_to_a_variable(line), "{line}");
        }
        for line in [
            "cd Work && echo \"$HOME\"",
            "ls \"$PWD\"",
            "abcd $x",
            "cd Work/$",
        ] {
            assert!(!goes_to_a_variable(line), "{line}");
        }
    }
}
