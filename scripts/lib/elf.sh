# ELF questions answered with binutils' readelf, for any architecture.
# Source after scripts/lib/common.sh.

# Directories a multiarch aarch64 glibc searches, relative to a root.
elf_library_dirs=(lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu lib usr/lib)

# The DT_NEEDED sonames of an ELF file, one per line.
elf_needed() {
  readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}

# The program interpreter of an executable (/lib/ld-linux-aarch64.so.1), if any.
elf_interpreter() {
  readelf -l "$1" 2>/dev/null | sed -n 's/.*\[Requesting program interpreter: \(.*\)\]/\1/p'
}

# The newest GLIBC_x.y symbol version an ELF file asks for (2.34), or nothing.
elf_max_glibc() {
  readelf -V --wide "$1" 2>/dev/null | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1
}

# The e_machine of an ELF file as readelf names it (AArch64).
elf_machine() {
  readelf -h "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p'
}

# Prints, relative to ROOT, every shared library FILE loads (transitively) and its
# interpreter; fails naming the first soname that ROOT does not have.
# Usage: elf_closure ROOT FILE
elf_closure() {
  local root=$1 file=$2 interp soname dir found
  local -A visited=()
  local queue=("$file")
  interp=$(elf_interpreter "$file")
  if [ -n "$interp" ]; then
    [ -e "$root$interp" ] || die "$file needs the interpreter $interp, which $root does not have"
    echo "${interp#/}"
  fi
  while [ "${#queue[@]}" -gt 0 ]; do
    file=${queue[0]}
    queue=("${queue[@]:1}")
    while read -r soname; do
      [ -n "$soname" ] || continue
      [ -n "${visited[$soname]:-}" ] && continue
      visited[$soname]=1
      found=
      for dir in "${elf_library_dirs[@]}"; do
        if [ -e "$root/$dir/$soname" ]; then found=$dir/$soname; break; fi
      done
      [ -n "$found" ] || die "$soname (needed by ${file#"$root"/}) is not in $root: add the Debian package that ships it to scripts/aarch64-packages"
      echo "$found"
      queue+=("$root/$found")
    done < <(elf_needed "$file")
  done
}

# The libraries patternlock opens with dlopen at its first TPM call (tpm2-tss; see
# Sources/CTPMShim/CTPMShim.c for why): no NEEDED entry names them, yet what a program
# needs installed (the runtime packages, the .deb's Depends, an image's libraries)
# includes them.
elf_dlopened_sonames=(libtss2-esys.so.0 libtss2-sys.so.1 libtss2-tctildr.so.0 libtss2-rc.so.0)

# Those of elf_dlopened_sonames that an ELF file names (strings in its read-only data,
# what it passes to dlopen), one per line.
elf_dlopened() {
  local soname
  for soname in "${elf_dlopened_sonames[@]}"; do
    if grep -qaF "$soname" "$1"; then echo "$soname"; fi
  done
  return 0
}
