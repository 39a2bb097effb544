//===- CompilerTest.cpp - Tests of codegen, linking and statistics --------===//
//
// Runs small LLVM IR kernels through the back half of the pipeline
// (optimizeModule -> emitAssembly/emitObject -> linkCodeObject -> computeStats)
// for both chips and checks facts that hold for any correct compiler: the MFMA
// the kernel asked for is in the code, the ELF is a code object for the chip,
// nothing spills. The classifier and occupancy model get exact tables.
//
// Set KCC_UNIT_DUMP_DIR to a directory to keep the code objects
// (<kernel>-<chip>.hsaco) for a look with llvm-readelf / llvm-objdump.
//
//===----------------------------------------------------------------------===//
#include "compiler/CodeGen.h"
#include "compiler/Link.h"
#include "compiler/Stats.h"
#include "target/Float16.h"
#include "target/Isa.h"
#include "target/Target.h"
#include "target/CodeObject.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <thread>

using namespace llvm;
using namespace kcc;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// One 32x32x8 bf16 MFMA (the gfx942 shape; gfx950 has it too) per wave, fed
/// from global memory and stored back: loads, the MFMA, stores, waits.
constexpr const char kMfma32x32x8[] = R"(
define amdgpu_kernel void @mfma_32x32x8(ptr addrspace(1) %out,
                                        ptr addrspace(1) %a,
                                        ptr addrspace(1) %b) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x i16>, ptr addrspace(1) %a, i32 %tid
  %va = load <4 x i16>, ptr addrspace(1) %pa
  %pb = getelementptr <4 x i16>, ptr addrspace(1) %b, i32 %tid
  %vb = load <4 x i16>, ptr addrspace(1) %pb
  %acc = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8bf16.1k(
      <4 x i16> %va, <4 x i16> %vb, <16 x float> zeroinitializer,
      i32 0, i32 0, i32 0)
  %po = getelementptr <16 x float>, ptr addrspace(1) %out, i32 %tid
  store <16 x float> %acc, ptr addrspace(1) %po
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare <16 x float> @llvm.amdgcn.mfma.f32.32x32x8bf16.1k(
    <4 x i16>, <4 x i16>, <16 x float>, i32, i32, i32)
attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
)";

/// The gfx950-only 32x32x16 bf16 MFMA.
constexpr const char kMfma32x32x16[] = R"(
define amdgpu_kernel void @mfma_32x32x16(ptr addrspace(1) %out,
                                         ptr addrspace(1) %a,
                                         ptr addrspace(1) %b) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <8 x bfloat>, ptr addrspace(1) %a, i32 %tid
  %va = load <8 x bfloat>, ptr addrspace(1) %pa
  %pb = getelementptr <8 x bfloat>, ptr addrspace(1) %b, i32 %tid
  %vb = load <8 x bfloat>, ptr addrspace(1) %pb
  %acc = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.bf16(
      <8 x bfloat> %va, <8 x bfloat> %vb, <16 x float> zeroinitializer,
      i32 0, i32 0, i32 0)
  %po = getelementptr <16 x float>, ptr addrspace(1) %out, i32 %tid
  store <16 x float> %acc, ptr addrspace(1) %po
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.bf16(
    <8 x bfloat>, <8 x bfloat>, <16 x float>, i32, i32, i32)
attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
)";

std::unique_ptr<Module> parseIR(StringRef text, LLVMContext &context) {
  SMDiagnostic diag;
  std::unique_ptr<Module> module = parseAssemblyString(text, diag, context);
  if (!module) {
    std::string message;
    raw_string_ostream os(message);
    diag.print("test", os);
    ADD_FAILURE() << message;
  }
  return module;
}

/// Unwraps an Expected, failing the test with the error's text.
template <typename T> T take(Expected<T> value) {
  if (!value) {
    ADD_FAILURE() << toString(value.takeError());
    return T();
  }
  return std::move(*value);
}

/// The stats as `kcc --stats` prints them, for failure messages.
std::string tableOf(ArrayRef<KernelStats> stats) {
  std::string table;
  raw_string_ostream os(table);
  printStatsTable(os, stats);
  return table;
}

/// e_flags, e_type, e_machine and the OS ABI version of an ELF file.
struct ElfHeader {
  unsigned type = 0, machine = 0, flags = 0, abiVersion = 0, osAbi = 0;
};

ElfHeader readHeader(ArrayRef<uint8_t> bytes) {
  ElfHeader h;
  Expected<object::ELF64LEFile> file = object::ELF64LEFile::create(
      StringRef(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
  if (!file) {
    ADD_FAILURE() << toString(file.takeError());
    return h;
  }
  const auto &e = file->getHeader();
  h.type = e.e_type;
  h.machine = e.e_machine;
  h.flags = e.e_flags;
  h.osAbi = e.e_ident[ELF::EI_OSABI];
  h.abiVersion = e.e_ident[ELF::EI_ABIVERSION];
  return h;
}

void dumpIfAsked(StringRef name, Chip chip, ArrayRef<uint8_t> bytes) {
  const char *dir = std::getenv("KCC_UNIT_DUMP_DIR");
  if (!dir || !*dir)
    return;
  SmallString<128> path(dir);
  sys::path::append(path, name + "-" + getChipInfo(chip).name + ".hsaco");
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec) << path.str().str() << ": " << ec.message();
  os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
}

/// A kernel, the chip to build it for and what its MFMA is called there.
struct PipelineCase {
  const char *ir;
  const char *kernel;
  Chip chip;
  const char *mfma;
};

void PrintTo(const PipelineCase &c, std::ostream *os) {
  *os << c.kernel << "/" << getChipInfo(c.chip).name.str();
}

//===----------------------------------------------------------------------===//
// The whole back half, per chip
//===----------------------------------------------------------------------===//

class PipelineTest : public ::testing::TestWithParam<PipelineCase> {};

TEST_P(PipelineTest, OptimizeEmitLinkStats) {
  const PipelineCase &c = GetParam();
  const ChipInfo &info = getChipInfo(c.chip);
  LLVMContext context;
  std::unique_ptr<Module> module = parseIR(c.ir, context);
  ASSERT_TRUE(module);

  ASSERT_FALSE(errorToBool(optimizeModule(*module, c.chip)));
  EXPECT_EQ(module->getTargetTriple().str(), "amdgcn-amd-amdhsa");
  EXPECT_FALSE(module->getDataLayoutStr().empty());

  // Assembly first: the emitters leave the module untouched, so the object
  // below comes from the same optimised module.
  std::string assembly = take(emitAssembly(*module, c.chip));
  EXPECT_NE(assembly.find(std::string(c.mfma) + " "), std::string::npos)
      << assembly;
  EXPECT_NE(assembly.find(".amdgcn_target \"amdgcn-amd-amdhsa--" +
                          info.name.str()),
            std::string::npos);
  EXPECT_NE(assembly.find(".amdhsa_code_object_version 5"), std::string::npos);

  SmallVector<char, 0> object = take(emitObject(*module, c.chip));
  ASSERT_FALSE(object.empty());
  ArrayRef<uint8_t> objectBytes(reinterpret_cast<const uint8_t *>(object.data()),
                                object.size());
  ElfHeader rel = readHeader(objectBytes);
  EXPECT_EQ(rel.type, unsigned(ELF::ET_REL));
  EXPECT_EQ(rel.machine, unsigned(ELF::EM_AMDGPU));
  EXPECT_EQ(rel.flags & ELF::EF_AMDGPU_MACH, info.elfMach);

  std::vector<uint8_t> hsaco = take(linkCodeObject(object));
  ASSERT_FALSE(hsaco.empty());
  dumpIfAsked(c.kernel, c.chip, hsaco);
  ElfHeader so = readHeader(hsaco);
  EXPECT_EQ(so.type, unsigned(ELF::ET_DYN));
  EXPECT_EQ(so.machine, unsigned(ELF::EM_AMDGPU));
  EXPECT_EQ(so.flags & ELF::EF_AMDGPU_MACH, info.elfMach);
  EXPECT_EQ(so.osAbi, unsigned(ELF::ELFOSABI_AMDGPU_HSA));
  EXPECT_EQ(so.abiVersion, unsigned(ELF::ELFABIVERSION_AMDGPU_HSA_V5));

  // The loader's view: v5 metadata naming the kernel, for this chip.
  Expected<CodeObject> parsed = CodeObject::parse(hsaco);
  ASSERT_TRUE(bool(parsed)) << toString(parsed.takeError());
  EXPECT_EQ(parsed->version(), 5u);
  ASSERT_TRUE(parsed->chip().has_value());
  EXPECT_EQ(*parsed->chip(), c.chip);
  EXPECT_NE(parsed->findKernel(c.kernel), nullptr)
      << parsed->kernelNameList();

  std::vector<KernelStats> stats = take(computeStats(hsaco));
  ASSERT_EQ(stats.size(), 1u);
  const KernelStats &k = stats[0];
  EXPECT_EQ(k.name, c.kernel);
  EXPECT_EQ(k.chip, c.chip);
  EXPECT_GT(k.vgprs, 0u);
  EXPECT_GT(k.sgprs, 0u);
  EXPECT_GE(k.allocatedVgprs, k.vgprs + k.agprs);
  EXPECT_EQ(k.allocatedVgprs % info.vgprAllocGranule, 0u);
  EXPECT_EQ(k.vgprSpills, 0u);
  EXPECT_EQ(k.sgprSpills, 0u);
  EXPECT_EQ(k.scratchBytes, 0u);
  EXPECT_EQ(k.ldsBytes, 0u);
  EXPECT_EQ(k.workgroupSize, 256u);
  // Few registers, no LDS: nothing but the hardware cap limits it.
  EXPECT_EQ(k.occupancy.wavesPerSimd, unsigned(info.maxWavesPerSimd));
  EXPECT_EQ(k.occupancy.limitedBy, OccupancyLimit::Hardware);

  const InstructionCounts &n = k.instructions;
  EXPECT_EQ(n[InstrClass::Mfma], 1u);
  EXPECT_EQ(n.byMnemonic.count(c.mfma), 1u);
  EXPECT_GE(n[InstrClass::Vmem], 3u);  // two loads, at least one store
  EXPECT_GE(n[InstrClass::Smem], 1u);  // the kernel arguments
  EXPECT_GE(n[InstrClass::Waitcnt], 1u);
  EXPECT_GE(n[InstrClass::Other], 1u); // s_endpgm
  EXPECT_EQ(n[InstrClass::Lds], 0u);
  EXPECT_EQ(n[InstrClass::Barrier], 0u);
  EXPECT_EQ(n.byMnemonic.count("s_endpgm"), 1u);
  EXPECT_EQ(k.codeBytes % 4, 0u);
  EXPECT_GE(k.codeBytes, 4u * n.total());

  // The printers carry the same numbers.
  std::string table;
  raw_string_ostream tableOS(table);
  printStatsTable(tableOS, stats);
  EXPECT_NE(table.find("kernel " + std::string(c.kernel) + " (" +
                       info.name.str() + ")"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("limited by hardware"), std::string::npos) << table;

  std::string text;
  raw_string_ostream jsonOS(text);
  printStatsJSON(jsonOS, stats);
  Expected<json::Value> json = json::parse(text);
  ASSERT_TRUE(bool(json)) << toString(json.takeError()) << "\n" << text;
  const json::Array *kernels = json->getAsObject()->getArray("kernels");
  ASSERT_TRUE(kernels && kernels->size() == 1) << text;
  const json::Object *kj = (*kernels)[0].getAsObject();
  EXPECT_EQ(kj->getString("name"), StringRef(c.kernel));
  EXPECT_EQ(kj->getString("chip"), info.name);
  EXPECT_EQ(kj->getInteger("sgprs"), int64_t(k.sgprs));
  EXPECT_EQ(kj->getInteger("vgpr_spills"), 0);
  EXPECT_EQ(kj->getObject("instructions")->getInteger("mfma"), 1);
  EXPECT_EQ(kj->getObject("mnemonics")->getInteger(c.mfma), 1);
}

INSTANTIATE_TEST_SUITE_P(
    Chips, PipelineTest,
    ::testing::Values(
        PipelineCase{kMfma32x32x8, "mfma_32x32x8", Chip::gfx942,
                     "v_mfma_f32_32x32x8_bf16"},
        PipelineCase{kMfma32x32x8, "mfma_32x32x8", Chip::gfx950,
                     "v_mfma_f32_32x32x8_bf16"},
        PipelineCase{kMfma32x32x16, "mfma_32x32x16", Chip::gfx950,
                     "v_mfma_f32_32x32x16_bf16"}),
    [](const ::testing::TestParamInfo<PipelineCase> &info) {
      return std::string(info.param.kernel) + "_" +
             getChipInfo(info.param.chip).name.str();
    });

/// Links from several threads at once: lld is serialised inside
/// linkCodeObject, so every thread must get a whole, identical code object.
TEST(LinkTest, ConcurrentLinksAreSerialised) {
  LLVMContext context;
  std::unique_ptr<Module> module = parseIR(kMfma32x32x8, context);
  ASSERT_TRUE(module);
  SmallVector<char, 0> object = take(emitObject(*module, Chip::gfx942));
  ASSERT_FALSE(object.empty());

  std::vector<std::vector<uint8_t>> results(4);
  std::vector<std::string> errors(4);
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < results.size(); ++i)
    threads.emplace_back([&, i] {
      Expected<std::vector<uint8_t>> linked = linkCodeObject(object);
      if (linked)
        results[i] = std::move(*linked);
      else
        errors[i] = toString(linked.takeError());
    });
  for (std::thread &t : threads)
    t.join();
  for (unsigned i = 0; i < results.size(); ++i) {
    EXPECT_EQ(errors[i], "");
    EXPECT_EQ(results[i], results[0]);
  }
  EXPECT_FALSE(results[0].empty());
}

/// AGPRs share the unified register file with the arch VGPRs: the stats
/// split `.vgpr_count` at accum_offset and count the allocation of both.
TEST(StatsTest, AgprsInUnifiedFile) {
  // The clobber of a31 makes the kernel own AGPRs a0-a31.
  constexpr const char kAgprs[] = R"(
define amdgpu_kernel void @agprs(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  call void asm sideeffect "", "~{a31}"()
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float 1.0, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
)";
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    LLVMContext context;
    std::unique_ptr<Module> module = parseIR(kAgprs, context);
    ASSERT_TRUE(module);
    std::vector<uint8_t> hsaco =
        take(linkCodeObject(take(emitObject(*module, chip))));
    std::vector<KernelStats> stats = take(computeStats(hsaco));
    ASSERT_EQ(stats.size(), 1u);
    const KernelStats &k = stats[0];
    EXPECT_EQ(k.agprs, 32u) << tableOf(stats);
    EXPECT_GT(k.vgprs, 0u) << tableOf(stats);
    EXPECT_EQ(k.vgprs % 4, 0u) << tableOf(stats); // rounded to accum_offset
    EXPECT_EQ(k.allocatedVgprs, alignTo(k.vgprs + k.agprs, 8))
        << tableOf(stats);
  }
}

//===----------------------------------------------------------------------===//
// Errors come back as llvm::Error
//===----------------------------------------------------------------------===//

std::string errorText(Error err) { return toString(std::move(err)); }

TEST(CodeGenErrorTest, RejectsModuleForAnotherTarget) {
  LLVMContext context;
  std::unique_ptr<Module> module = parseIR(kMfma32x32x8, context);
  ASSERT_TRUE(module);
  module->setTargetTriple(Triple("x86_64-unknown-linux-gnu"));
  std::string message = errorText(optimizeModule(*module, Chip::gfx942));
  EXPECT_NE(message.find("x86_64-unknown-linux-gnu"), std::string::npos)
      << message;
  EXPECT_NE(message.find("amdgcn"), std::string::npos) << message;
}

TEST(CodeGenErrorTest, RejectsOtherCodeObjectVersion) {
  LLVMContext context;
  std::unique_ptr<Module> module = parseIR(kMfma32x32x8, context);
  ASSERT_TRUE(module);
  module->addModuleFlag(Module::Error, "amdhsa_code_object_version", 400);
  std::string message = errorText(emitObject(*module, Chip::gfx942).takeError());
  EXPECT_NE(message.find("code object v5"), std::string::npos) << message;
}

TEST(CodeGenErrorTest, RejectsBadOptLevel) {
  LLVMContext context;
  std::unique_ptr<Module> module = parseIR(kMfma32x32x8, context);
  ASSERT_TRUE(module);
  std::string message = errorText(optimizeModule(*module, Chip::gfx942, 7));
  EXPECT_NE(message.find("optimisation level 7"), std::string::npos)
      << message;
}

/// A backend error (more LDS than a gfx942 workgroup may have) must come
/// back as an Error instead of LLVMContext's default exit(1).
TEST(CodeGenErrorTest, BackendDiagnosticBecomesError) {
  constexpr const char kTooMuchLds[] = R"(
@lds = internal addrspace(3) global [24576 x float] poison, align 4
define amdgpu_kernel void @big_lds(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [24576 x float], ptr addrspace(3) @lds, i32 0, i32 %tid
  store float 1.0, ptr addrspace(3) %p
  %v = load float, ptr addrspace(3) %p
  store float %v, ptr addrspace(1) %out
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
)";
  LLVMContext context;
  std::unique_ptr<Module> module = parseIR(kTooMuchLds, context);
  ASSERT_TRUE(module);
  Expected<SmallVector<char, 0>> object = emitObject(*module, Chip::gfx942);
  ASSERT_FALSE(bool(object));
  std::string message = errorText(object.takeError());
  EXPECT_NE(message.find("code generation for gfx942 failed"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("big_lds"), std::string::npos) << message;

  // 96 KiB fits in gfx950's 160 KiB.
  LLVMContext context950;
  std::unique_ptr<Module> module950 = parseIR(kTooMuchLds, context950);
  ASSERT_TRUE(module950);
  Expected<SmallVector<char, 0>> object950 =
      emitObject(*module950, Chip::gfx950);
  ASSERT_TRUE(bool(object950)) << toString(object950.takeError());
  std::vector<KernelStats> stats = take(computeStats(take(linkCodeObject(*object950))));
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].ldsBytes, 24576u * 4) << tableOf(stats);
  EXPECT_EQ(stats[0].occupancy.limitedBy, OccupancyLimit::Lds)
      << tableOf(stats);
}

TEST(CodeGenErrorTest, RejectsInvalidIR) {
  LLVMContext context;
  std::unique_ptr<Module> module = parseIR(kMfma32x32x8, context);
  ASSERT_TRUE(module);
  // A block without a terminator: the verifier must catch it before any
  // pass sees it.
  Function *f = module->getFunction("mfma_32x32x8");
  ASSERT_TRUE(f);
  f->getEntryBlock().getTerminator()->eraseFromParent();
  std::string message = errorText(optimizeModule(*module, Chip::gfx950));
  EXPECT_NE(message.find("invalid LLVM IR"), std::string::npos) << message;
}

TEST(LinkErrorTest, RejectsNonElfInput) {
  const char garbage[] = "not an object";
  std::string message =
      errorText(linkCodeObject(ArrayRef<char>(garbage, sizeof(garbage)))
                    .takeError());
  EXPECT_NE(message.find("not a 64-bit ELF"), std::string::npos) << message;
}

TEST(LinkErrorTest, RejectsLinkedCodeObject) {
  LLVMContext context;
  std::unique_ptr<Module> module = parseIR(kMfma32x32x8, context);
  ASSERT_TRUE(module);
  std::vector<uint8_t> hsaco =
      take(linkCodeObject(take(emitObject(*module, Chip::gfx942))));
  ASSERT_FALSE(hsaco.empty());
  std::string message = errorText(
      linkCodeObject(ArrayRef<char>(reinterpret_cast<const char *>(hsaco.data()),
                                    hsaco.size()))
          .takeError());
  EXPECT_NE(message.find("not a relocatable object"), std::string::npos)
      << message;
}

TEST(StatsErrorTest, RejectsNonCodeObject) {
  const uint8_t garbage[] = {1, 2, 3, 4};
  Expected<std::vector<KernelStats>> stats = computeStats(garbage);
  EXPECT_FALSE(bool(stats));
  consumeError(stats.takeError());
}

//===----------------------------------------------------------------------===//
// Classifier and occupancy model
//===----------------------------------------------------------------------===//

TEST(ClassifyTest, Mnemonics) {
  struct {
    const char *mnemonic;
    InstrClass cls;
  } cases[] = {
      {"v_mfma_f32_32x32x8_bf16", InstrClass::Mfma},
      {"v_mfma_f32_32x32x16_bf16", InstrClass::Mfma},
      {"v_mfma_scale_f32_32x32x64_f8f6f4", InstrClass::Mfma},
      {"v_smfmac_f32_32x32x32_bf16", InstrClass::Mfma},
      {"v_mfma_ld_scale_b32", InstrClass::Valu},
      {"v_add_f32_e32", InstrClass::Valu},
      {"v_pk_fma_f32", InstrClass::Valu},
      {"v_cvt_pk_bf16_f32", InstrClass::Valu},
      {"v_permlane32_swap_b32_e32", InstrClass::Valu},
      {"v_ldexp_f32", InstrClass::Valu},
      {"v_frexp_mant_f32_e32", InstrClass::Valu},
      {"v_exp_f32_e32", InstrClass::Transcendental},
      {"v_log_f32_e32", InstrClass::Transcendental},
      {"v_rcp_f32_e32", InstrClass::Transcendental},
      {"v_rcp_iflag_f32_e32", InstrClass::Transcendental},
      {"v_rsq_f32_e32", InstrClass::Transcendental},
      {"v_sqrt_f32_e32", InstrClass::Transcendental},
      {"v_sin_f32_e32", InstrClass::Transcendental},
      {"v_cos_f16_e32", InstrClass::Transcendental},
      {"v_exp_legacy_f32_e32", InstrClass::Transcendental},
      {"v_log_legacy_f32_e64", InstrClass::Transcendental},
      {"v_rsq_f64_e32", InstrClass::Transcendental},
      {"v_sqrt_f16_sdwa", InstrClass::Transcendental},
      {"v_exp_f32_dpp", InstrClass::Transcendental},
      {"v_prng_b32_e32", InstrClass::Valu},
      {"s_add_u32", InstrClass::Salu},
      {"s_mov_b64", InstrClass::Salu},
      {"s_and_saveexec_b64", InstrClass::Salu},
      {"s_load_dwordx4", InstrClass::Smem},
      {"s_buffer_load_dword", InstrClass::Smem},
      {"s_memtime", InstrClass::Smem},
      {"s_dcache_wb", InstrClass::Smem},
      {"buffer_load_dwordx4", InstrClass::Vmem},
      {"buffer_inv", InstrClass::Vmem},
      {"global_store_dwordx4", InstrClass::Vmem},
      {"global_atomic_add_f32", InstrClass::Vmem},
      {"flat_load_dword", InstrClass::Vmem},
      {"scratch_store_dword", InstrClass::Vmem},
      {"ds_read_b128", InstrClass::Lds},
      {"ds_read_b64_tr_b16", InstrClass::Lds},
      {"ds_bpermute_b32", InstrClass::Lds},
      {"s_waitcnt", InstrClass::Waitcnt},
      {"s_waitcnt_vmcnt", InstrClass::Waitcnt},
      {"s_barrier", InstrClass::Barrier},
      {"s_branch", InstrClass::Branch},
      {"s_cbranch_scc1", InstrClass::Branch},
      {"s_cbranch_execz", InstrClass::Branch},
      {"s_setpc_b64", InstrClass::Branch},
      {"s_swappc_b64", InstrClass::Branch},
      {"s_endpgm", InstrClass::Other},
      {"s_nop", InstrClass::Other},
      {"s_setprio", InstrClass::Other},
      {"s_sendmsg", InstrClass::Other},
      {"exp", InstrClass::Other},
  };
  for (const auto &c : cases)
    EXPECT_EQ(instrClassName(classifyMnemonic(c.mnemonic)),
              instrClassName(c.cls))
        << c.mnemonic;
}

TEST(CountTest, DecodesKnownWords) {
  // s_nop 0 (0xbf800000), v_mov_b32_e32 v0, 0 (0x7e000280),
  // s_waitcnt vmcnt(0) lgkmcnt(0) (0xbf8c0070), s_endpgm (0xbf810000).
  const uint8_t code[] = {0x00, 0x00, 0x80, 0xbf, 0x80, 0x02, 0x00, 0x7e,
                          0x70, 0x00, 0x8c, 0xbf, 0x00, 0x00, 0x81, 0xbf};
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    InstructionCounts n = take(countInstructions(chip, code, 0x100));
    EXPECT_EQ(n.total(), 4u);
    EXPECT_EQ(n[InstrClass::Valu], 1u);
    EXPECT_EQ(n[InstrClass::Waitcnt], 1u);
    EXPECT_EQ(n[InstrClass::Other], 2u);
    EXPECT_EQ(n.byMnemonic.count("v_mov_b32_e32"), 1u);
    EXPECT_EQ(n.byMnemonic.count("s_endpgm"), 1u);
  }
}

TEST(CountTest, TruncatedInstructionIsAnError) {
  // The first half of a 64-bit VOP3 encoding (v_add_f32_e64) with nothing
  // after it.
  const uint8_t code[] = {0x00, 0x00, 0x01, 0xd1};
  Expected<InstructionCounts> n = countInstructions(Chip::gfx942, code, 0x40);
  ASSERT_FALSE(bool(n));
  std::string message = toString(n.takeError());
  EXPECT_NE(message.find("0x40"), std::string::npos) << message;
}

TEST(OccupancyTest, Table) {
  struct {
    Chip chip;
    unsigned vgprs, sgprs;
    uint64_t lds;
    unsigned workgroupSize;
    unsigned waves;
    OccupancyLimit limit;
  } cases[] = {
      // Registers alone, 64-wide workgroups.
      {Chip::gfx942, 32, 32, 0, 64, 8, OccupancyLimit::Hardware},
      {Chip::gfx942, 64, 32, 0, 64, 8, OccupancyLimit::Hardware},
      {Chip::gfx942, 65, 32, 0, 64, 7, OccupancyLimit::Vgprs}, // 72 allocated
      {Chip::gfx942, 128, 32, 0, 64, 4, OccupancyLimit::Vgprs},
      {Chip::gfx942, 256, 32, 0, 64, 2, OccupancyLimit::Vgprs},
      {Chip::gfx950, 512, 32, 0, 64, 1, OccupancyLimit::Vgprs},
      {Chip::gfx942, 32, 102, 0, 64, 7, OccupancyLimit::Sgprs},
      // LDS: one 64 KiB workgroup of 4 waves per gfx942 CU, two on gfx950.
      {Chip::gfx942, 32, 32, 64 * 1024, 256, 1, OccupancyLimit::Lds},
      {Chip::gfx950, 32, 32, 64 * 1024, 256, 2, OccupancyLimit::Lds},
      // VGPRs and LDS both allow two: LDS is named (see computeOccupancy).
      {Chip::gfx950, 256, 32, 160 * 1024, 512, 2, OccupancyLimit::Lds},
      {Chip::gfx950, 256, 32, 32 * 1024, 512, 2, OccupancyLimit::Vgprs},
      {Chip::gfx950, 32, 32, 160 * 1024, 512, 2, OccupancyLimit::Lds},
      // Three waves' worth of registers, but 8-wave workgroups fit only once
      // per CU: two waves per SIMD.
      {Chip::gfx942, 168, 32, 0, 512, 2, OccupancyLimit::WorkgroupSize},
      // More LDS than a CU has: the kernel cannot run.
      {Chip::gfx942, 32, 32, 96 * 1024, 256, 0, OccupancyLimit::Lds},
  };
  for (const auto &c : cases) {
    Occupancy o = computeOccupancy(
        c.chip, KernelResources{c.vgprs, c.sgprs, c.lds, c.workgroupSize});
    EXPECT_EQ(o.wavesPerSimd, c.waves)
        << getChipInfo(c.chip).name.str() << " vgprs=" << c.vgprs
        << " sgprs=" << c.sgprs << " lds=" << c.lds
        << " wg=" << c.workgroupSize;
    EXPECT_EQ(occupancyLimitName(o.limitedBy), occupancyLimitName(c.limit))
        << getChipInfo(c.chip).name.str() << " vgprs=" << c.vgprs
        << " sgprs=" << c.sgprs << " lds=" << c.lds
        << " wg=" << c.workgroupSize;
  }
}

// Whole workgroups per CU, what the emulator's scheduler and the timing model
// hold resident: wave slots, LDS, and one barrier per multi-wave workgroup.
TEST(OccupancyTest, WorkgroupsPerCu) {
  struct {
    Chip chip;
    unsigned registers;
    uint64_t lds;
    unsigned workgroupSize;
    unsigned groups;
  } cases[] = {
      // Single-wave workgroups hold no barrier: all 32 wave slots.
      {Chip::gfx942, 32, 0, 64, 32},
      {Chip::gfx942, 32, 0, 256, 8},
      {Chip::gfx942, 128, 0, 256, 4},
      {Chip::gfx950, 512, 0, 256, 1},
      {Chip::gfx950, 128, 160 * 1024, 512, 1},
      {Chip::gfx942, 32, 16 * 1024, 128, 4},
      // Eight 8-wave workgroups of 512 registers cannot be resident at all.
      {Chip::gfx942, 512, 0, 512, 0},
  };
  for (const auto &c : cases) {
    Occupancy o = computeOccupancy(
        c.chip, KernelResources{c.registers, 32, c.lds, c.workgroupSize});
    EXPECT_EQ(o.workgroupsPerCu, c.groups)
        << getChipInfo(c.chip).name.str() << " registers=" << c.registers
        << " lds=" << c.lds << " wg=" << c.workgroupSize;
  }
}

// target/Float16.h is bit-level (no compiler extension in a public header);
// the compiler's own _Float16 is the independent reference: every half
// widens alike (signalling NaNs quieted), and a spread of a million floats,
// NaN payloads, subnormals and ties included, narrows alike.
TEST(Float16Test, AgreesWithTheCompilersHalf) {
  for (uint32_t h = 0; h < 65536; ++h) {
    uint16_t bits = uint16_t(h);
    _Float16 x;
    std::memcpy(&x, &bits, 2);
    float ref = float(x), got = f16ToFloat(bits);
    ASSERT_EQ(0, std::memcmp(&ref, &got, 4)) << "f16 0x" << std::hex << h;
  }
  for (uint64_t u = 0; u < (uint64_t(1) << 32); u += 4099) {
    uint32_t v = uint32_t(u);
    float f;
    std::memcpy(&f, &v, 4);
    _Float16 x = _Float16(f);
    uint16_t ref;
    std::memcpy(&ref, &x, 2);
    ASSERT_EQ(ref, floatToF16(f)) << "f32 0x" << std::hex << v;
  }
  // bf16: round to nearest even, NaN kept a NaN.
  EXPECT_EQ(floatToBf16(1.0f + 1.0f / 256), 0x3f80); // tie to even (down)
  EXPECT_EQ(floatToBf16(1.0f + 3.0f / 256), 0x3f82); // tie to even (up)
  uint32_t snan = 0x7f800001u;
  float nan;
  std::memcpy(&nan, &snan, 4);
  EXPECT_EQ(floatToBf16(nan) & 0x7fc0, 0x7fc0);
  EXPECT_EQ(bf16ToFloat(0x3f80), 1.0f);
}

// The data sheet's dense 16-bit peak is the product of target/'s other
// facts: CUs x SIMDs x the largest bf16 MFMA's FLOPs per cycle (4 cycles a
// pass) x the peak clock.
TEST(TargetTest, DataSheetPeakFromTheOtherFacts) {
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    const ChipInfo &ci = getChipInfo(chip);
    const char *mfma = chip == Chip::gfx942 ? "v_mfma_f32_32x32x8_bf16"
                                            : "v_mfma_f32_32x32x16_bf16";
    double perCycle = double(mfmaFlops(mfma)) / (4.0 * mfmaPasses(chip, mfma));
    double peak = ci.computeUnits * ci.simdsPerCU * perCycle * ci.peakClockGHz * 1e9;
    EXPECT_NEAR(peak / ci.peakDense16Flops, 1.0, 1e-3) << ci.name.str();
    EXPECT_GT(ci.hbmBytesPerSecond, 0) << ci.name.str();
  }
}

// One transcendental rule for --stats and the timing model: LLVM's TRANS
// instructions of gfx942/gfx950 in every encoding form, and no look-alike.
TEST(TargetTest, Transcendental) {
  for (const char *m :
       {"v_exp_f32_e32", "v_exp_f16_e64", "v_exp_legacy_f32_e32", "v_log_f32_e32",
        "v_log_f16_sdwa", "v_log_legacy_f32_e64", "v_rcp_f32_e32", "v_rcp_f64_e64",
        "v_rcp_f16_dpp", "v_rcp_iflag_f32_e32", "v_rsq_f32_e32", "v_rsq_f64_e32",
        "v_rsq_f16_e32", "v_sqrt_f32_e32", "v_sqrt_f64_e64", "v_sqrt_f16_e32",
        "v_sin_f32_e32", "v_sin_f16_e32", "v_cos_f32_e64", "v_cos_f16_e32"})
    EXPECT_TRUE(isTranscendental(m)) << m;
  for (const char *m :
       {"v_ldexp_f32", "v_frexp_mant_f32_e32", "v_frexp_exp_i32_f32_e32",
        "v_exp_legacy", "v_mul_f32_e32", "v_fma_f32", "v_prng_b32_e32",
        "v_cvt_f32_f16_e32", "v_mfma_f32_32x32x8_bf16", "s_sleep"})
    EXPECT_FALSE(isTranscendental(m)) << m;
}

// MFMA names: every MFMA and SMFMAC form parses, v_mfma_ld_scale_b32 (a VALU
// instruction) does not.
TEST(TargetTest, MfmaNames) {
  std::optional<MfmaName> f = parseMfmaName("v_mfma_scale_f32_32x32x64_f8f6f4");
  ASSERT_TRUE(f.has_value());
  EXPECT_TRUE(f->scaled);
  EXPECT_EQ(f->out, "f32");
  EXPECT_EQ(f->m, 32u);
  EXPECT_EQ(f->k, 64u);
  EXPECT_EQ(f->type, "f8f6f4");
  EXPECT_TRUE(isMfma("v_smfmac_f32_16x16x64_bf16"));
  EXPECT_TRUE(isMfma("v_mfma_f32_32x32x1_2b_f32"));
  EXPECT_FALSE(isMfma("v_mfma_ld_scale_b32"));
  EXPECT_FALSE(isMfma("v_add_f32"));
  EXPECT_EQ(mfmaPasses(Chip::gfx950, "v_mfma_f32_32x32x64_f8f6f4", /*fp8Operand=*/true), 16u);
  EXPECT_EQ(mfmaPasses(Chip::gfx950, "v_mfma_f32_32x32x16_bf16", /*fp8Operand=*/true), 8u);
}

TEST(TargetTest, ElfMachRoundTrip) {
  for (Chip chip : {Chip::gfx942, Chip::gfx950})
    EXPECT_EQ(chipFromElfMach(getChipInfo(chip).elfMach), chip);
  EXPECT_FALSE(chipFromElfMach(ELF::EF_AMDGPU_MACH_AMDGCN_GFX90A).has_value());
}

} // namespace

/// A damaged metadata note is an error, never a crash: every byte of the
/// note's region is replaced in turn by msgpack container headers (a map
/// or an array where a key or a scalar was, which msgpack::Document alone
/// meets with llvm_unreachable) and by a byte msgpack never uses.
TEST(CodeObjectErrorTest, DamagedMetadataNoteIsAnError) {
  LLVMContext context;
  std::unique_ptr<Module> module = parseIR(kMfma32x32x8, context);
  ASSERT_TRUE(module);
  std::vector<uint8_t> hsaco =
      take(linkCodeObject(take(emitObject(*module, Chip::gfx942))));
  ASSERT_TRUE(bool(CodeObject::parse(hsaco)));
  // The note's msgpack map starts shortly before its first key.
  StringRef bytes(reinterpret_cast<const char *>(hsaco.data()), hsaco.size());
  size_t key = bytes.find("amdhsa.kernels");
  ASSERT_NE(key, StringRef::npos);
  size_t begin = key > 64 ? key - 64 : 0;
  size_t end = std::min(hsaco.size(), key + 1500);
  unsigned errors = 0, parsed = 0;
  for (size_t i = begin; i < end; ++i)
    for (uint8_t v : {uint8_t(0x81), uint8_t(0x91), uint8_t(0xc1)}) {
      std::vector<uint8_t> damaged = hsaco;
      if (damaged[i] == v)
        continue;
      damaged[i] = v;
      Expected<CodeObject> co = CodeObject::parse(damaged);
      if (co) {
        ++parsed;
      } else {
        ++errors;
        consumeError(co.takeError());
      }
    }
  // Most damage is reported; some lands in string bytes that do not matter.
  EXPECT_GT(errors, 100u);
  EXPECT_GT(parsed + errors, 3000u);
}
