//===- Link.cpp - Relocatable object to AMDGPU code object ----------------===//
//
// lld's ELF driver reads and writes files, not memory buffers, so the object
// goes through two temporary files, removed whatever happens.
//
//===----------------------------------------------------------------------===//
#include "compiler/Link.h"

#include "lld/Common/Driver.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

using namespace llvm;

namespace kcc {

/// Rejects anything but an amdgcn ELF relocatable object up front, so a wrong
/// input gets a message about the input rather than an lld error about a file
/// with a temporary name.
static Error checkInput(ArrayRef<char> bytes) {
  StringRef data(bytes.data(), bytes.size());
  Expected<object::ELF64LEFile> file = object::ELF64LEFile::create(data);
  if (!file)
    return createStringError(inconvertibleErrorCode(),
                             "cannot link: the input is not a 64-bit ELF "
                             "object (%s)",
                             toString(file.takeError()).c_str());
  const object::ELF64LE::Ehdr &header = file->getHeader();
  if (header.e_machine != ELF::EM_AMDGPU)
    return createStringError(inconvertibleErrorCode(),
                             "cannot link: the input object is for ELF machine "
                             "%u, not AMDGPU (%u)",
                             unsigned(header.e_machine),
                             unsigned(ELF::EM_AMDGPU));
  if (header.e_type != ELF::ET_REL)
    return createStringError(inconvertibleErrorCode(),
                             "cannot link: the input is not a relocatable "
                             "object (ELF type %u); pass the output of "
                             "emitObject",
                             unsigned(header.e_type));
  return Error::success();
}

static Error fileError(const Twine &what, std::error_code ec) {
  return createStringError(ec, "cannot link: %s: %s", what.str().c_str(),
                           ec.message().c_str());
}

Expected<std::vector<uint8_t>> linkCodeObject(ArrayRef<char> relocatableObject) {
  if (Error err = checkInput(relocatableObject))
    return std::move(err);

  SmallString<128> inputPath, outputPath;
  int inputFd;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("kcc-link", "o", inputFd, inputPath))
    return fileError("creating a temporary input file", ec);
  FileRemover removeInput(inputPath);
  {
    raw_fd_ostream os(inputFd, /*shouldClose=*/true);
    os.write(relocatableObject.data(), relocatableObject.size());
    os.close();
    if (os.has_error())
      return fileError("writing " + inputPath, os.error());
  }
  if (std::error_code ec =
          sys::fs::createTemporaryFile("kcc-link", "hsaco", outputPath))
    return fileError("creating a temporary output file", ec);
  FileRemover removeOutput(outputPath);

  // lld keeps global state between links and is not reentrant; one link at a
  // time in the whole process. After a crash lld says it cannot run again,
  // and every later link must fail rather than touch corrupted state.
  static std::mutex lldMutex;
  static bool lldUnusable = false;
  std::string diagnostics;
  {
    std::lock_guard<std::mutex> lock(lldMutex);
    if (lldUnusable)
      return createStringError(inconvertibleErrorCode(),
                               "cannot link: lld crashed earlier in this "
                               "process and cannot run again; restart the "
                               "process");
    // The flags of clang's HIP toolchain for device code: a shared object in
    // which every symbol must be defined (the loader resolves nothing).
    const char *args[] = {"ld.lld",         "-shared",
                          "--no-undefined", inputPath.c_str(),
                          "-o",             outputPath.c_str()};
    raw_string_ostream out(diagnostics), err(diagnostics);
    lld::Result result =
        lld::lldMain(args, out, err, {{lld::Gnu, &lld::elf::link}});
    if (!result.canRunAgain)
      lldUnusable = true;
    if (result.retCode != 0)
      return createStringError(inconvertibleErrorCode(),
                               "lld failed to link the code object (exit "
                               "code %d):\n%s",
                               result.retCode, diagnostics.c_str());
  }

  ErrorOr<std::unique_ptr<MemoryBuffer>> output =
      MemoryBuffer::getFile(outputPath, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!output)
    return fileError("reading lld's output " + outputPath, output.getError());
  StringRef bytes = (*output)->getBuffer();
  return std::vector<uint8_t>(bytes.bytes_begin(), bytes.bytes_end());
}

} // namespace kcc
