//! Keeps the server's memory what its work needs, not the most it ever needed.
//!
//! The bursts are known: an image upload or a new post's image variants (tens of MB, one at
//! a time, see `generator::media::image_turn`), a password check (argon2: 19 MiB) and the
//! static files' body cache (`STATIC_CACHE_MB`). With glibc's defaults those bursts stayed
//! resident for good: its threshold for giving large blocks their own mapping grows to the
//! largest block ever freed (so later ones come from the heap and stay), and each of up to
//! 8 × cores arenas keeps what its threads once held. `just bench` (bench/memory.mjs) showed
//! 626 MB still held after a mixed load; with these settings, 47 MB.

/// Blocks of at least this size get their own mapping, returned to the system when freed.
const MMAP_THRESHOLD: i32 = 1 << 20;
/// Arenas the threads share: enough for two cores without contention.
const ARENA_MAX: i32 = 2;

/// Sets glibc's allocator up so large blocks go back to the system as they are freed. Call
/// it first in `main`, before any thread is started.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's parameters; called before other threads.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_ARENA_MAX, ARENA_MAX);
    }
}

/// Gives the free pages inside the heap back to the system (glibc only returns the top of
/// the heap by itself). Cheap: run once a minute by the housekeeping.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim is safe to call at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}
