// SPDX-License-Identifier: GPL-2.0
//
// A QEMU TCG plugin for bench/profile.sh: counts the guest instructions
// executed per translation block, between a "start" and a "stop" the
// guest asks for, and writes them per block start address. perf's
// cpu-clock samples in a TCG guest land almost all in the idle loop (the
// sampling timer is delivered when a vCPU halts), so this count is the
// profile that does not depend on guest interrupts. It counts
// instructions, not time: an emulated memory access or helper costs more
// than an ALU instruction, but the split between functions holds.
//
// qemu-system-x86_64 -plugin build/bench/insn-profile.so,ctl=DIR/profile.ctl
//
// The guest appends lines "SEQ start NAME" / "SEQ stop NAME" to the
// control file (a 9p share of the host); a thread here polls it every
// 20 ms. "start" zeroes the counters and writes DIR/NAME.started; "stop"
// writes DIR/NAME.insns ("VADDR INSNS N" per block: hex, executed
// instructions, instructions in the block; a header with the window's
// length and the vCPUs' halted time) and then DIR/NAME.stopped. Counters are plain inline adds (not
// atomic): two vCPUs racing on one block lose a few counts, not the picture.
//
// Built against QEMU's plugin API version 1 (QEMU 7.2, Debian 12); the few
// declarations it needs are written out below (the header is not packaged).

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

extern "C" {
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(qemu_plugin_tb *tb, qemu_plugin_op op, void *ptr,
					      uint64_t imm);
void qemu_plugin_register_vcpu_idle_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_resume_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const qemu_plugin_tb *tb);
void qemu_plugin_outs(const char *string);
__attribute__((visibility("default"))) extern int qemu_plugin_version;
__attribute__((visibility("default"))) int
qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv);
}

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

namespace {

struct Block {
	uint64_t vaddr;
	uint64_t insns; // executed instructions, added inline by the guest code
	uint64_t n;     // instructions in the block (the last translation of it)
};

constexpr unsigned kMaxVcpus = 64;

std::mutex g_lock;          // g_blocks, g_index
std::deque<Block> g_blocks; // stable addresses: the inline adds point here
std::unordered_map<uint64_t, Block *> g_index;
std::string g_ctl;
std::string g_dir;
std::atomic<bool> g_stop{false};

using Clock = std::chrono::steady_clock;
std::atomic<int64_t> g_idle_ns[kMaxVcpus];
std::atomic<int64_t> g_idle_since[kMaxVcpus]; // 0: running
int64_t g_window_start = 0;

int64_t now_ns()
{
	return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
	    .count();
}

void on_trans(qemu_plugin_id_t, qemu_plugin_tb *tb)
{
	const uint64_t va = qemu_plugin_tb_vaddr(tb);
	const size_t n = qemu_plugin_tb_n_insns(tb);
	Block *b;
	{
		std::lock_guard<std::mutex> g(g_lock);
		auto it = g_index.find(va);
		if (it == g_index.end()) {
			g_blocks.push_back(Block{va, 0, n});
			b = &g_blocks.back();
			g_index.emplace(va, b);
		} else {
			b = it->second;
			b->n = n;
		}
	}
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->insns, n);
}

void on_idle(qemu_plugin_id_t, unsigned int vcpu)
{
	if (vcpu < kMaxVcpus)
		g_idle_since[vcpu] = now_ns();
}

void on_resume(qemu_plugin_id_t, unsigned int vcpu)
{
	if (vcpu >= kMaxVcpus)
		return;
	const int64_t since = g_idle_since[vcpu].exchange(0);
	if (since)
		g_idle_ns[vcpu] += now_ns() - since;
}

// Halted nanoseconds per vCPU since the last reset, counting a halt that
// is still going on.
std::vector<int64_t> idle_snapshot()
{
	std::vector<int64_t> v;
	const int64_t t = now_ns();
	for (unsigned i = 0; i < kMaxVcpus; i++) {
		int64_t ns = g_idle_ns[i];
		const int64_t since = g_idle_since[i];
		if (since)
			ns += t - since;
		v.push_back(ns);
	}
	return v;
}

void touch(const std::string &path)
{
	std::ofstream(path) << "ok\n";
}

void start(const std::string &name)
{
	{
		std::lock_guard<std::mutex> g(g_lock);
		for (auto &b : g_blocks)
			b.insns = 0;
	}
	const int64_t t = now_ns();
	for (unsigned i = 0; i < kMaxVcpus; i++) {
		g_idle_ns[i] = 0;
		if (g_idle_since[i])
			g_idle_since[i] = t;
	}
	g_window_start = t;
	touch(g_dir + "/" + name + ".started");
}

void stop(const std::string &name)
{
	const int64_t window = now_ns() - g_window_start;
	const std::vector<int64_t> idle = idle_snapshot();
	std::vector<Block> snap;
	{
		std::lock_guard<std::mutex> g(g_lock);
		for (const auto &b : g_blocks)
			if (b.insns)
				snap.push_back(b);
	}
	const std::string path = g_dir + "/" + name + ".insns";
	FILE *f = std::fopen(path.c_str(), "w");
	if (f) {
		std::fprintf(f, "# window_ns %" PRId64 "\n# idle_ns", window);
		for (unsigned i = 0; i < kMaxVcpus; i++)
			if (idle[i])
				std::fprintf(f, " %u:%" PRId64, i, idle[i]);
		std::fprintf(f, "\n");
		for (const auto &b : snap)
			std::fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", b.vaddr, b.insns,
				     b.n);
		std::fclose(f);
	}
	touch(g_dir + "/" + name + ".stopped");
}

// Follows the control file: acts on each line whose sequence number is
// new.
void poll_ctl()
{
	long done = 0;
	while (!g_stop) {
		std::ifstream in(g_ctl);
		std::string line;
		while (std::getline(in, line)) {
			std::istringstream ls(line);
			long seq = 0;
			std::string cmd, name;
			if (!(ls >> seq >> cmd >> name) || seq <= done)
				continue;
			done = seq;
			if (name.find('/') != std::string::npos)
				continue;
			if (cmd == "start")
				start(name);
			else if (cmd == "stop")
				stop(name);
		}
		std::this_thread::sleep_for(std::chrono::milliseconds(20));
	}
}

// The poller is detached: QEMU may leave through exit() without calling
// the atexit callback first, and a joinable std::thread would abort it.
void on_exit(qemu_plugin_id_t, void *)
{
	g_stop = true;
}

} // namespace

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (std::strncmp(argv[i], "ctl=", 4) == 0)
			g_ctl = argv[i] + 4;
	}
	if (g_ctl.empty()) {
		qemu_plugin_outs("insn-profile: ctl=FILE is required\n");
		return -1;
	}
	const auto slash = g_ctl.rfind('/');
	g_dir = slash == std::string::npos ? "." : g_ctl.substr(0, slash);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_vcpu_idle_cb(id, on_idle);
	qemu_plugin_register_vcpu_resume_cb(id, on_resume);
	qemu_plugin_register_atexit_cb(id, on_exit, nullptr);
	std::thread(poll_ctl).detach();
	return 0;
}
