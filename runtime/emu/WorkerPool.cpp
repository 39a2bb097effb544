//===- WorkerPool.cpp - Host threads kept between launches ----------------===//
#include "runtime/emu/WorkerPool.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <unistd.h>

namespace kcc::emu {
namespace {

class WorkerPool {
public:
  /// The pool of this process. Never destroyed: its threads wait for work
  /// until the process ends, and joining them from a static destructor
  /// could wait on a launch still running in another thread.
  static WorkerPool &get() {
    static std::mutex guard;
    static WorkerPool *pool = nullptr;
    std::lock_guard<std::mutex> held(guard);
    // After fork() the child has none of the parent's threads.
    if (!pool || pool->owner != getpid())
      pool = new WorkerPool();
    return *pool;
  }

  void run(std::vector<std::function<void()>> tasks,
           const std::function<void()> &here) {
    std::mutex doneLock;
    std::condition_variable doneWake;
    size_t remaining = tasks.size();
    {
      std::lock_guard<std::mutex> held(lock);
      // Idle threads each take one queued task: start one per task that
      // no idle thread is left for.
      size_t free = idle > queue.size() ? idle - queue.size() : 0;
      for (size_t i = free; i < tasks.size(); ++i)
        std::thread([this] { loop(); }).detach();
      for (auto &task : tasks)
        queue.push_back([&, task = std::move(task)] {
          task();
          std::lock_guard<std::mutex> d(doneLock);
          if (--remaining == 0)
            doneWake.notify_all();
        });
    }
    wake.notify_all();
    here();
    std::unique_lock<std::mutex> d(doneLock);
    doneWake.wait(d, [&] { return remaining == 0; });
  }

private:
  void loop() {
    std::unique_lock<std::mutex> held(lock);
    for (;;) {
      ++idle;
      wake.wait(held, [&] { return !queue.empty(); });
      --idle;
      std::function<void()> task = std::move(queue.front());
      queue.pop_front();
      held.unlock();
      task();
      held.lock();
    }
  }

  pid_t owner = getpid();
  std::mutex lock; // idle, queue
  std::condition_variable wake;
  size_t idle = 0;
  std::deque<std::function<void()>> queue;
};

} // namespace

void runOnPool(std::vector<std::function<void()>> tasks,
               const std::function<void()> &here) {
  WorkerPool::get().run(std::move(tasks), here);
}

} // namespace kcc::emu
