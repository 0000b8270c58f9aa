// CViewModelKit: the one thing ViewModelKit needs that Swift does not offer without libc or the
// concurrency runtime's generic task-local machinery: a plain thread-local pointer, read and
// written by inline functions (compiled into ViewModelKit itself: a couple of instructions
// each). ViewModelKit keeps in it the offer of shared port facts while it makes an instance's
// Ports() (Sources/ViewModelKit/Internals/PortFactsSharing.swift). Only module ViewModelKit
// imports it.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// The calling thread's offer, NULL while no Ports() is being made on it. Static, in the
/// header: its one definition is the importing module's own (ViewModelKit's).
__attribute__((nodebug)) static _Thread_local void *_Nullable cviewmodelkit_offer_of_this_thread = 0;

/// The calling thread's offer, or NULL.
__attribute__((nodebug)) static inline void *_Nullable cviewmodelkit_offer(void) {
    return cviewmodelkit_offer_of_this_thread;
}

/// Sets the calling thread's offer (NULL: none).
__attribute__((nodebug)) static inline void cviewmodelkit_set_offer(void *_Nullable offer) {
    cviewmodelkit_offer_of_this_thread = offer;
}

#ifdef __cplusplus
}
#endif
