# shellcheck shell=bash
# Shared by ./rein, ./test and .ci/run (sourced, not executed): find a JDK 21 or newer and make
# sure the JVM decodes arguments as UTF-8. Uses bash built-ins where it can, so it stays fast.

# Where JDKs are looked for when neither JAVA_HOME nor the java on PATH is new enough. The
# highest version wins. REIN_JDK_SEARCH (space-separated globs) replaces the list.
REIN_JDK_SEARCH=${REIN_JDK_SEARCH:-"/usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* /Library/Java/JavaVirtualMachines/*/Contents/Home $HOME/.sdkman/candidates/java/* $HOME/.jdks/*"}
REIN_MIN_JAVA=21

# Prints the major version of the JDK at home $1 ("21"), or fails. Reads the release file (no JVM
# start); falls back to `java -version`.
rein_java_major() {
  local home=$1 line version=""
  [[ -x "$home/bin/java" ]] || return 1
  if [[ -r "$home/release" ]]; then
    while IFS= read -r line || [[ -n $line ]]; do
      if [[ $line == JAVA_VERSION=* ]]; then
        version=${line#JAVA_VERSION=}
        version=${version//\"/}
        break
      fi
    done <"$home/release"
  fi
  if [[ -z $version ]]; then
    line=$("$home/bin/java" -version 2>&1 | head -n 1) || return 1
    [[ $line =~ \"([^\"]+)\" ]] || return 1
    version=${BASH_REMATCH[1]}
  fi
  version=${version#1.}   # 1.8.0_402 -> 8.0_402
  version=${version%%[!0-9]*}
  [[ -n $version ]] || return 1
  printf '%s\n' "$version"
}

# The JDK home of the java command on PATH, following symlinks (/usr/bin/java -> /etc/alternatives/...).
rein_path_java_home() {
  local java
  java=$(command -v java 2>/dev/null) || return 1
  if command -v readlink >/dev/null 2>&1; then
    java=$(readlink -f "$java" 2>/dev/null || printf '%s' "$java")
  fi
  java=${java%/bin/java}
  [[ -x "$java/bin/java" ]] || return 1
  printf '%s\n' "$java"
}

# Finds a JDK >= 21 and exports JAVA_HOME (and puts it first on PATH). With "build", the JDK must
# also have javac. Order: JAVA_HOME, the java on PATH, then the newest under REIN_JDK_SEARCH.
# On failure prints what it checked to stderr and returns 1.
rein_find_jdk() {
  local need_javac=0 home major best="" best_major=0 checked=() pattern
  [[ ${1:-} == build ]] && need_javac=1
  _rein_usable() { # $1 home -> sets major; true when >= 21 (and has javac if needed)
    major=$(rein_java_major "$1") || { major="?"; return 1; }
    ((major >= REIN_MIN_JAVA)) || return 1
    ((need_javac == 0)) || [[ -x "$1/bin/javac" ]] || { major="$major, no javac"; return 1; }
  }
  if [[ -n ${JAVA_HOME:-} ]]; then
    if _rein_usable "$JAVA_HOME"; then best=$JAVA_HOME; else checked+=("JAVA_HOME=$JAVA_HOME (Java $major)"); fi
  fi
  if [[ -z $best ]] && home=$(rein_path_java_home); then
    if _rein_usable "$home"; then best=$home; else checked+=("java on PATH: $home (Java $major)"); fi
  fi
  if [[ -z $best ]]; then
    for pattern in $REIN_JDK_SEARCH; do
      for home in $pattern; do
        [[ -d $home ]] || continue
        if _rein_usable "$home"; then
          if ((major > best_major)); then best=$home; best_major=$major; fi
        elif [[ -x "$home/bin/java" ]]; then
          checked+=("$home (Java $major)")
        fi
      done
    done
  fi
  unset -f _rein_usable
  if [[ -n $best && -n ${JAVA_HOME:-} && $best != "$JAVA_HOME" ]]; then
    # A JAVA_HOME the user set on purpose is not ignored unseen: the build and run use another JDK.
    local problem="it is Java ${checked[0]##* (Java }"
    problem=${problem%)}
    [[ -x "$JAVA_HOME/bin/java" ]] || problem="it has no bin/java"
    [[ $problem != "it is Java ?" ]] || problem="its Java version cannot be read"
    echo "rein: JAVA_HOME=$JAVA_HOME is not a JDK $REIN_MIN_JAVA+ ($problem); using $best instead (set JAVA_HOME to a JDK $REIN_MIN_JAVA+, or unset it, to stop this message)" >&2
  fi
  if [[ -z $best ]]; then
    {
      echo "rein: no JDK $REIN_MIN_JAVA or newer found$( ((need_javac)) && echo " (with javac, to build Rein)")."
      if ((${#checked[@]})); then
        echo "  checked: ${checked[0]}"
        # printf repeats its format for each argument but runs it once without any: a line of spaces
        ((${#checked[@]} > 1)) && printf '           %s\n' "${checked[@]:1}"
      else
        echo "  JAVA_HOME is not set, there is no java on PATH, and none under: $REIN_JDK_SEARCH"
      fi
      echo "  Install JDK $REIN_MIN_JAVA+ (for example Temurin from https://adoptium.net) and set JAVA_HOME to it."
    } >&2
    return 1
  fi
  export JAVA_HOME=$best
  export PATH="$JAVA_HOME/bin:$PATH"
}

# The JVM decodes command-line arguments with the locale's charset: under LANG=C a Japanese goal
# would arrive as '?'. Switch the character type (only) to UTF-8 when the locale is not UTF-8.
rein_utf8_locale() {
  local current=${LC_ALL:-${LC_CTYPE:-${LANG:-}}}
  shopt -s nocasematch
  if [[ $current =~ utf-?8 ]]; then
    shopt -u nocasematch
    return 0
  fi
  shopt -u nocasematch
  if [[ -n ${LC_ALL:-} ]]; then
    export LC_ALL=C.UTF-8
  else
    export LC_CTYPE=C.UTF-8
  fi
}

# Fails with an installation hint when Maven is missing.
rein_require_maven() {
  command -v mvn >/dev/null 2>&1 && return 0
  echo "rein: Maven (mvn) is needed to build Rein; install Maven 3.8+ (https://maven.apache.org/install.html, or your package manager's 'maven')." >&2
  return 1
}

# Maven 3.8/3.9 calls sun.misc.Unsafe, which JDK 24+ warns about on every build; silence only that.
rein_maven_opts() {
  local major
  major=$(rein_java_major "$JAVA_HOME") || return 0
  if ((major >= 24)) && [[ ${MAVEN_OPTS:-} != *sun-misc-unsafe-memory-access* ]]; then
    export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }--sun-misc-unsafe-memory-access=allow"
  fi
}
