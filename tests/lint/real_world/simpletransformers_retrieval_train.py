# Source: ThilinaRajapakse/simpletransformers simpletransformers/retrieval/retrieval_model.py @ 03a3789f2c65119949f7cd98b524e78c6cc87d27 (Apache-2.0). Excerpt: the module's imports and RetrievalModel.train, unchanged; the other methods trimmed. The fp16 branch of the repeat-high-loss loop steps (scaler.step) without a clear, so the next backward (the repeat loop's next pass, and the one after the loop) adds onto applied gradients (a real bug, found by a held-out review); the other branch clears after its step, and its backward must stay silent.
from contextlib import nullcontext
import json
import logging
import math
import os
import random
import warnings
import string
import itertools
from dataclasses import asdict
from multiprocessing import Pool, cpu_count
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import transformers
from torch.utils.tensorboard import SummaryWriter
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset, RandomSampler, SequentialSampler
from torch.utils.data.distributed import DistributedSampler
from torch.nn.parallel import DistributedDataParallel as DDP
from tqdm.auto import tqdm, trange
from transformers.optimization import (
    get_constant_schedule,
    get_constant_schedule_with_warmup,
    get_linear_schedule_with_warmup,
    get_cosine_schedule_with_warmup,
    get_cosine_with_hard_restarts_schedule_with_warmup,
    get_polynomial_decay_schedule_with_warmup,
)
from torch.optim import AdamW
from transformers.optimization import Adafactor
from transformers.models.dpr import (
    DPRConfig,
    DPRContextEncoder,
    DPRQuestionEncoder,
    DPRContextEncoderTokenizerFast,
    DPRQuestionEncoderTokenizerFast,
)
from transformers.models.auto import (
    AutoConfig,
    AutoModel,
    AutoTokenizer,
    AutoModelForSequenceClassification,
)
from datasets import load_from_disk
from datasets.arrow_dataset import Dataset as HFDataset
from datasets import disable_caching

from simpletransformers.config.global_args import global_args
from simpletransformers.config.model_args import RetrievalArgs
from simpletransformers.config.utils import sweep_config_to_sweep_values
from simpletransformers.custom_models.large_representation_retrieval_model import (
    DPRContextEncoderEnhanced,
    DPRQuestionEncoderEnhanced,
    DPRContextEncoderUnifiedRR,
    DPRQuestionEncoderUnifiedRR,
)
from simpletransformers.custom_models.reranking_model import RerankingModel
from simpletransformers.custom_models.retrieval_autoencoder import Autoencoder
from simpletransformers.retrieval.beir_evaluation import BeirRetrievalModel
from simpletransformers.retrieval.retrieval_utils import (
    KLDivLossForTriplets,
    MultiNegativesLoss,
    QuartetLossV1,
    QuartetLossV3,
    calculate_mrr,
    convert_beir_columns_to_trec_format,
    get_clustered_passage_dataset,
    get_output_embeddings,
    get_prediction_passage_dataset,
    get_tas_dataset,
    load_hf_dataset,
    get_evaluation_passage_dataset,
    mean_reciprocal_rank_at_k,
    get_recall_at_k,
    RetrievalOutput,
    load_trec_format,
    embed_passages_trec_format,
    compute_rerank_similarity,
    MarginMSELoss,
    colbert_score,
    MovingLossAverage,
)
from simpletransformers.retrieval.pytrec_eval_utils import (
    convert_predictions_to_pytrec_format,
    convert_qrels_dataset_to_pytrec_format,
    convert_metric_dict_to_scores_list,
)
from simpletransformers.utils.utils import ChunkSampler

from simpletransformers.custom_models.models import ColBERTModel


try:
    import wandb

    wandb_available = True
except ImportError:
    wandb_available = False


class RetrievalModel:
    def train(
        self,
        train_dataset,
        output_dir,
        show_running_loss=True,
        eval_data=None,
        additional_eval_passages=None,
        relevant_docs=None,
        clustered_training=False,
        train_data=None,
        top_k_values=None,
        verbose=True,
        eval_set="dev",
        **kwargs,
    ):
        """
        Trains the model on train_dataset.

        Utility function to be used by the train_model() method. Not intended to be used directly.
        """

        context_model = self.context_encoder
        query_model = self.query_encoder
        args = self.args

        tb_writer = SummaryWriter(log_dir=args.tensorboard_dir)
        if self.args.batch_chunk_size is not None:
            if clustered_training or args.tas_clustering:
                raise ValueError(
                    "Chunked training is not supported with clustered training or TAS clustering."
                )
            train_sampler = ChunkSampler(
                train_dataset, self.args.batch_chunk_size, self.args.train_batch_size
            )
        else:
            train_sampler = RandomSampler(train_dataset)

        if clustered_training or args.tas_clustering:
            train_dataloader = train_dataset
            if args.curriculum_clustering:
                # Number of epochs where randomizing happens is 75% of total epochs
                randomize_epochs = int(0.75 * args.num_train_epochs)

                # Linearly decrease randomize percentage for 1 to 0 over the randomize epochs
                randomize_percentage = np.linspace(1, 0, randomize_epochs)

                # Add 0 to the end of the randomize percentage for the remaining epochs
                randomize_percentage = np.append(
                    randomize_percentage,
                    np.zeros(args.num_train_epochs - randomize_epochs),
                )
            else:
                randomize_percentage = np.zeros(args.num_train_epochs)
        else:
            train_dataloader = DataLoader(
                train_dataset,
                sampler=train_sampler,
                batch_size=args.train_batch_size,
                num_workers=self.args.dataloader_num_workers,
            )

        if args.max_steps > 0:
            t_total = args.max_steps
            args.num_train_epochs = (
                args.max_steps
                // (len(train_dataloader) // args.gradient_accumulation_steps)
                + 1
            )
        else:
            t_total = (
                len(train_dataloader)
                // args.gradient_accumulation_steps
                * args.num_train_epochs
            )
        self.t_total = t_total
        if self.args.nll_lambda_start_decay is not None:
            total_decay_steps = self.t_total - self.args.nll_lambda_start_decay
            self.nll_lambda_decay_per_step = (
                self.args.nll_lambda - self.args.nll_lambda_min
            ) / total_decay_steps

        optimizer_grouped_parameters = self.get_optimizer_parameters(
            context_model, query_model, args
        )

        warmup_steps = math.ceil(t_total * args.warmup_ratio)
        args.warmup_steps = (
            warmup_steps if args.warmup_steps == 0 else args.warmup_steps
        )

        if args.optimizer == "AdamW":
            optimizer = AdamW(
                optimizer_grouped_parameters,
                lr=args.learning_rate,
                eps=args.adam_epsilon,
                betas=args.adam_betas,
            )
        elif args.optimizer == "Adafactor":
            optimizer = Adafactor(
                optimizer_grouped_parameters,
                lr=args.learning_rate,
                eps=args.adafactor_eps,
                clip_threshold=args.adafactor_clip_threshold,
                decay_rate=args.adafactor_decay_rate,
                beta1=args.adafactor_beta1,
                weight_decay=args.weight_decay,
                scale_parameter=args.adafactor_scale_parameter,
                relative_step=args.adafactor_relative_step,
                warmup_init=args.adafactor_warmup_init,
            )
        else:
            raise ValueError(
                "{} is not a valid optimizer class. Please use one of ('AdamW', 'Adafactor') instead.".format(
                    args.optimizer
                )
            )

        scheduler = self.get_scheduler(optimizer, args, t_total)

        criterion = torch.nn.NLLLoss(reduction="mean")

        if (
            args.model_name
            and os.path.isfile(os.path.join(args.model_name, "optimizer.pt"))
            and os.path.isfile(os.path.join(args.model_name, "scheduler.pt"))
        ):
            # Load in optimizer and scheduler states
            optimizer.load_state_dict(
                torch.load(os.path.join(args.model_name, "optimizer.pt"))
            )
            scheduler.load_state_dict(
                torch.load(os.path.join(args.model_name, "scheduler.pt"))
            )

        if args.n_gpu > 1:
            context_model = torch.nn.DataParallel(context_model)
            query_model = torch.nn.DataParallel(query_model)
            self.teacher_model = torch.nn.DataParallel(self.teacher_model)

        logger.info(" Training started")

        self.global_step = 0
        training_progress_scores = None
        tr_loss, logging_loss = 0.0, 0.0
        context_model.zero_grad()
        query_model.zero_grad()
        train_iterator = trange(
            int(args.num_train_epochs), desc="Epoch", disable=args.silent, mininterval=0
        )
        epoch_number = 0
        best_eval_metric = None
        early_stopping_counter = 0
        steps_trained_in_current_epoch = 0
        epochs_trained = 0
        moving_loss = MovingLossAverage(args.moving_average_loss_count)

        if args.model_name and os.path.exists(args.model_name):
            try:
                # set global_step to gobal_step of last saved checkpoint from model path
                checkpoint_suffix = args.model_name.split("/")[-1].split("-")
                if len(checkpoint_suffix) > 2:
                    checkpoint_suffix = checkpoint_suffix[1]
                else:
                    checkpoint_suffix = checkpoint_suffix[-1]
                self.global_step = int(checkpoint_suffix)
                epochs_trained = (
                    self.global_step
                    // (len(train_dataloader) // args.gradient_accumulation_steps)
                    + 1
                )
                steps_trained_in_current_epoch = self.global_step % (
                    len(train_dataloader) // args.gradient_accumulation_steps
                )

                logger.info(
                    "   Continuing training from checkpoint, will skip to saved global_step"
                )
                logger.info("   Continuing training from epoch %d", epochs_trained)
                logger.info(
                    "   Continuing training from global step %d", self.global_step
                )
                logger.info(
                    "   Will skip the first %d steps in the current epoch",
                    steps_trained_in_current_epoch,
                )
                train_iterator = trange(
                    epochs_trained,
                    int(args.num_train_epochs),
                    desc="Epoch",
                    disable=args.silent,
                    mininterval=0,
                )
            except ValueError:
                logger.info("   Starting fine-tuning.")

        if args.evaluate_during_training:
            training_progress_scores = self._create_training_progress_scores(
                calculate_recall=relevant_docs is not None,
                top_k_values=top_k_values,
                **kwargs,
            )
            if self.args.early_stopping_metric not in training_progress_scores:
                raise ValueError(
                    "early_stopping_metric should be one of the metrics used for evaluation. \
                        Available metrics are {} and the early_stopping_metric is {}".format(
                        list(training_progress_scores.keys()),
                        self.args.early_stopping_metric,
                    )
                )

        if args.wandb_project:
            wandb.init(
                project=args.wandb_project,
                config={**asdict(args)},
                **args.wandb_kwargs,
            )
            wandb.run._label(repo="simpletransformers")
            wandb.watch(context_model)
            wandb.watch(query_model)

        if args.fp16:
            from torch.cuda import amp

            scaler = amp.GradScaler()

        if args.external_embeddings:
            args.train_context_encoder = False

        for current_epoch in train_iterator:
            if args.train_context_encoder:
                context_model.train()
            else:
                context_model.eval()
            if args.train_query_encoder:
                query_model.train()
            else:
                query_model.eval()

            if epochs_trained > 0:
                epochs_trained -= 1
                epoch_number = current_epoch - 1
                continue
            train_iterator.set_description(
                f"Epoch {epoch_number + 1} of {args.num_train_epochs}"
            )
            batch_iterator = tqdm(
                train_dataloader,
                desc=f"Running Epoch {epoch_number + 1} of {args.num_train_epochs}",
                disable=args.silent,
                mininterval=0,
            )
            for step, batch in enumerate(batch_iterator):
                if steps_trained_in_current_epoch > 0:
                    steps_trained_in_current_epoch -= 1
                    continue
                # batch = tuple(t.to(device) for t in batch)
                (
                    context_inputs,
                    query_inputs,
                    labels,
                    teacher_scores,
                ) = self._get_inputs_dict(batch)

                high_loss_repeats = 0

                while True:
                    if args.fp16:
                        with amp.autocast():
                            retrieval_output = self._calculate_loss(
                                context_model,
                                query_model,
                                context_inputs,
                                query_inputs,
                                labels,
                                teacher_scores=teacher_scores,
                            )
                            loss = retrieval_output.loss
                            correct_predictions_percentage = (
                                retrieval_output.correct_predictions_percentage
                            )
                    else:
                        retrieval_output = self._calculate_loss(
                            context_model,
                            query_model,
                            context_inputs,
                            query_inputs,
                            labels,
                            teacher_scores=teacher_scores,
                        )
                        loss = retrieval_output.loss
                        correct_predictions_percentage = (
                            retrieval_output.correct_predictions_percentage
                        )
                    colbert_percentage = (
                        retrieval_output.teacher_correct_predictions_percentage
                    )

                    if args.n_gpu > 1:
                        loss = loss.mean()

                    # Compare the current loss to the moving average loss
                    current_loss = loss.item()

                    if (
                        args.repeat_high_loss_n == 0
                        or moving_loss.size() < args.moving_average_loss_count
                    ):
                        break

                    if current_loss > moving_loss.get_average_loss():
                        # Increment the high loss repeats counter
                        high_loss_repeats += 1

                        if high_loss_repeats > args.repeat_high_loss_n:
                            # Exit the loop if the high loss repeats counter exceeds the threshold
                            break
                        if args.fp16:
                            scaler.scale(loss).backward()  # expect: ZG101
                        else:
                            loss.backward()

                        if args.fp16:
                            scaler.unscale_(optimizer)
                        if args.optimizer == "AdamW":
                            torch.nn.utils.clip_grad_norm_(
                                context_model.parameters(), args.max_grad_norm
                            )
                            torch.nn.utils.clip_grad_norm_(
                                query_model.parameters(), args.max_grad_norm
                            )

                        if args.fp16:
                            scaler.step(optimizer)
                            scaler.update()
                        else:
                            optimizer.step()
                            context_model.zero_grad()
                            query_model.zero_grad()
                    else:
                        # Exit the loop if the current loss is lower than the moving average loss
                        break

                if args.repeat_high_loss_n > 0:
                    moving_loss.add_loss(current_loss)

                if show_running_loss and (args.reranking_kl_div_loss or args.mse_loss):
                    batch_iterator.set_description(
                        f"Epochs {epoch_number + 1}/{args.num_train_epochs}. Running Loss: {current_loss:9.4f} Correct percentage: {correct_predictions_percentage:4.1f} Teacher correct percentage: {colbert_percentage:4.1f}"
                    )
                elif show_running_loss:
                    if args.repeat_high_loss_n > 0:
                        batch_iterator.set_description(
                            f"Epochs {epoch_number + 1}/{args.num_train_epochs}. Running Loss: {current_loss:9.4f} Correct percentage: {correct_predictions_percentage:4.1f} High loss repeats: {high_loss_repeats}"
                        )
                    else:
                        if args.include_quartet_loss:
                            batch_iterator.set_description(
                                f"Epochs {epoch_number + 1}/{args.num_train_epochs}. Running Loss: {current_loss:9.4f} Quartet loss: {retrieval_output.quartet_loss:9.4f} Correct percentage: {correct_predictions_percentage:4.1f}"
                            )
                        else:
                            batch_iterator.set_description(
                                f"Epochs {epoch_number + 1}/{args.num_train_epochs}. Running Loss: {current_loss:9.4f} Correct percentage: {correct_predictions_percentage:4.1f}"
                            )

                if args.gradient_accumulation_steps > 1:
                    loss = loss / args.gradient_accumulation_steps

                if args.fp16:
                    scaler.scale(loss).backward()  # expect: ZG101
                else:
                    loss.backward()

                tr_loss += loss.item()
                if (step + 1) % args.gradient_accumulation_steps == 0:
                    if args.fp16:
                        scaler.unscale_(optimizer)
                    if args.optimizer == "AdamW":
                        torch.nn.utils.clip_grad_norm_(
                            context_model.parameters(), args.max_grad_norm
                        )
                        torch.nn.utils.clip_grad_norm_(
                            query_model.parameters(), args.max_grad_norm
                        )

                    if args.fp16:
                        scaler.step(optimizer)
                        scaler.update()
                    else:
                        optimizer.step()
                    scheduler.step()  # Update learning rate schedule
                    context_model.zero_grad()
                    query_model.zero_grad()
                    self.global_step += 1

                    if (
                        args.logging_steps > 0
                        and self.global_step % args.logging_steps == 0
                    ):
                        # Log metrics
                        tb_writer.add_scalar(
                            "lr", scheduler.get_last_lr()[0], self.global_step
                        )
                        tb_writer.add_scalar(
                            "loss",
                            (tr_loss - logging_loss) / args.logging_steps,
                            self.global_step,
                        )
                        logging_loss = tr_loss
                        if args.wandb_project or self.is_sweeping:
                            # if args.reranking_kl_div_loss or args.mse_loss:
                            #     # Deprecated
                            #     logging_dict = {
                            #         "Training loss": current_loss,
                            #         "lr": scheduler.get_last_lr()[0],
                            #         "global_step": self.global_step,
                            #         "correct_predictions_percentage": correct_predictions_percentage,
                            #         "teacher_correct_predictions_percentage": colbert_percentage,
                            #     }
                            #     if args.include_nll_loss:
                            #         logging_dict[
                            #             "nll_loss"
                            #         ] = retrieval_output.nll_loss
                            #         if args.reranking_kl_div_loss:
                            #             logging_dict["kl_div_loss"] = (
                            #                 current_loss - retrieval_output.nll_loss
                            #             )
                            #         elif args.mse_loss:
                            #             logging_dict["mse_loss"] = (
                            #                 current_loss - retrieval_output.nll_loss
                            #             )

                            logging_dict = {
                                "Training loss": current_loss,
                                "lr": scheduler.get_last_lr()[0],
                                "global_step": self.global_step,
                                "correct_predictions_percentage": correct_predictions_percentage,
                            }

                            if retrieval_output.nll_loss is not None:
                                logging_dict["nll_loss"] = retrieval_output.nll_loss
                            if retrieval_output.kl_div_loss is not None:
                                logging_dict["kl_div_loss"] = (
                                    retrieval_output.kl_div_loss
                                )
                            if retrieval_output.margin_mse_loss is not None:
                                logging_dict["margin_mse_loss"] = (
                                    retrieval_output.margin_mse_loss
                                )
                            if retrieval_output.quartet_loss is not None:
                                logging_dict["quartet_loss"] = (
                                    retrieval_output.quartet_loss
                                )

                            wandb.log(logging_dict)

                    if args.save_steps > 0 and self.global_step % args.save_steps == 0:
                        # Save model checkpoint
                        output_dir_current = os.path.join(
                            output_dir, "checkpoint-{}".format(self.global_step)
                        )

                        self.save_model(
                            output_dir_current,
                            optimizer,
                            scheduler,
                            context_model=context_model,
                            query_model=query_model,
                        )

                    if args.evaluate_during_training and (
                        args.evaluate_during_training_steps > 0
                        and self.global_step % args.evaluate_during_training_steps == 0
                    ):
                        # Only evaluate when single GPU otherwise metrics may not average well
                        if args.data_format == "beir" or args.data_format == "msmarco":
                            if isinstance(eval_data, list):
                                results = {}
                                for eval_data_item, eval_name, current_set in zip(
                                    eval_data, self.eval_dataset_names, eval_set
                                ):
                                    # We need to keep adding the results to the same dictionary
                                    # as we are evaluating on multiple datasets
                                    results_default_names = self.eval_model(
                                        eval_data_item,
                                        verbose=verbose
                                        and args.evaluate_during_training_verbose,
                                        silent=args.evaluate_during_training_silent,
                                        evaluating_during_training=True,
                                        eval_set=current_set,
                                        **kwargs,
                                    )

                                    for key in results_default_names:
                                        results[f"{eval_name}_{key}"] = (
                                            results_default_names[key]
                                        )
                            else:
                                results = self.eval_model(
                                    eval_data,
                                    verbose=verbose
                                    and args.evaluate_during_training_verbose,
                                    silent=args.evaluate_during_training_silent,
                                    evaluating_during_training=True,
                                    eval_set=eval_set,
                                    **kwargs,
                                )
                        else:
                            results, *_ = self.eval_model(
                                eval_data,
                                additional_passages=additional_eval_passages,
                                relevant_docs=relevant_docs,
                                verbose=verbose
                                and args.evaluate_during_training_verbose,
                                silent=args.evaluate_during_training_silent,
                                top_k_values=top_k_values,
                                evaluating_during_training=True,
                                **kwargs,
                            )
                        for key, value in results.items():
                            try:
                                tb_writer.add_scalar(
                                    "eval_{}".format(key), value, self.global_step
                                )
                            except (NotImplementedError, AssertionError):
                                pass

                        output_dir_current = os.path.join(
                            output_dir, "checkpoint-{}".format(self.global_step)
                        )

                        if args.save_eval_checkpoints:
                            self.save_model(
                                output_dir_current,
                                optimizer,
                                scheduler,
                                context_model=context_model,
                                query_model=query_model,
                                results=results,
                            )

                        training_progress_scores["global_step"].append(self.global_step)
                        training_progress_scores["train_loss"].append(current_loss)
                        for key in results:
                            training_progress_scores[key].append(results[key])
                        report = pd.DataFrame(training_progress_scores)
                        report.to_csv(
                            os.path.join(
                                args.output_dir, "training_progress_scores.csv"
                            ),
                            index=False,
                        )

                        if args.wandb_project or self.is_sweeping:
                            wandb.log(self._get_last_metrics(training_progress_scores))

                        if not best_eval_metric:
                            best_eval_metric = results[args.early_stopping_metric]
                            if args.save_best_model:
                                self.save_model(
                                    args.best_model_dir,
                                    optimizer,
                                    scheduler,
                                    context_model=context_model,
                                    query_model=query_model,
                                    results=results,
                                )
                        if best_eval_metric and args.early_stopping_metric_minimize:
                            if (
                                results[args.early_stopping_metric] - best_eval_metric
                                < args.early_stopping_delta
                            ):
                                best_eval_metric = results[args.early_stopping_metric]
                                if args.save_best_model:
                                    self.save_model(
                                        args.best_model_dir,
                                        optimizer,
                                        scheduler,
                                        context_model=context_model,
                                        query_model=query_model,
                                        results=results,
                                    )
                                early_stopping_counter = 0
                            else:
                                if args.use_early_stopping:
                                    if (
                                        early_stopping_counter
                                        < args.early_stopping_patience
                                    ):
                                        early_stopping_counter += 1
                                        if verbose:
                                            logger.info(
                                                f" No improvement in {args.early_stopping_metric}"
                                            )
                                            logger.info(
                                                f" Current step: {early_stopping_counter}"
                                            )
                                            logger.info(
                                                f" Early stopping patience: {args.early_stopping_patience}"
                                            )
                                    else:
                                        if verbose:
                                            logger.info(
                                                f" Patience of {args.early_stopping_patience} steps reached"
                                            )
                                            logger.info(" Training terminated.")
                                            train_iterator.close()
                                        return (
                                            self.global_step,
                                            (
                                                tr_loss / self.global_step
                                                if not self.args.evaluate_during_training
                                                else training_progress_scores
                                            ),
                                        )
                        else:
                            if (
                                results[args.early_stopping_metric] - best_eval_metric
                                > args.early_stopping_delta
                            ):
                                best_eval_metric = results[args.early_stopping_metric]
                                if args.save_best_model:
                                    self.save_model(
                                        args.best_model_dir,
                                        optimizer,
                                        scheduler,
                                        context_model=context_model,
                                        query_model=query_model,
                                        results=results,
                                    )
                                early_stopping_counter = 0
                            else:
                                if args.use_early_stopping:
                                    if (
                                        early_stopping_counter
                                        < args.early_stopping_patience
                                    ):
                                        early_stopping_counter += 1
                                        if verbose:
                                            logger.info(
                                                f" No improvement in {args.early_stopping_metric}"
                                            )
                                            logger.info(
                                                f" Current step: {early_stopping_counter}"
                                            )
                                            logger.info(
                                                f" Early stopping patience: {args.early_stopping_patience}"
                                            )
                                    else:
                                        if verbose:
                                            logger.info(
                                                f" Patience of {args.early_stopping_patience} steps reached"
                                            )
                                            logger.info(" Training terminated.")
                                            train_iterator.close()
                                        return (
                                            self.global_step,
                                            (
                                                tr_loss / self.global_step
                                                if not self.args.evaluate_during_training
                                                else training_progress_scores
                                            ),
                                        )
                        context_model.train()
                        query_model.train()

            epoch_number += 1
            output_dir_current = os.path.join(
                output_dir,
                "checkpoint-{}-epoch-{}".format(self.global_step, epoch_number),
            )

            if (
                clustered_training or self.args.ance_training
            ) and epoch_number != args.num_train_epochs:
                train_dataset = self.load_and_cache_examples(
                    train_data,
                    verbose=verbose,
                    clustered_training=clustered_training,
                    evaluate=False,
                    additional_eval_passages=additional_eval_passages,
                    clustered_batch_randomize_percentage=(
                        randomize_percentage[epoch_number]
                        if clustered_training
                        else None
                    ),
                    epoch_number=epoch_number,
                    dataset=train_dataset,
                )
                train_sampler = RandomSampler(train_dataset)
                if clustered_training:
                    train_dataloader = train_dataset
                else:
                    train_dataloader = DataLoader(
                        train_dataset,
                        sampler=train_sampler,
                        batch_size=args.train_batch_size,
                        num_workers=self.args.dataloader_num_workers,
                    )

            if args.save_model_every_epoch or args.evaluate_during_training:
                os.makedirs(output_dir_current, exist_ok=True)

            if args.save_model_every_epoch:
                self.save_model(
                    output_dir_current,
                    optimizer,
                    scheduler,
                    context_model=context_model,
                    query_model=query_model,
                )

            if args.evaluate_during_training and args.evaluate_each_epoch:
                if args.data_format == "beir" or args.data_format == "msmarco":
                    if isinstance(eval_data, list):
                        results = {}
                        for eval_data_item, eval_name, current_set in zip(
                            eval_data, self.eval_dataset_names, eval_set
                        ):
                            # We need to keep adding the results to the same dictionary
                            # as we are evaluating on multiple datasets
                            results_default_names = self.eval_model(
                                eval_data_item,
                                verbose=verbose
                                and args.evaluate_during_training_verbose,
                                silent=args.evaluate_during_training_silent,
                                evaluating_during_training=True,
                                eval_set=current_set,
                                **kwargs,
                            )

                            for key in results_default_names:
                                results[f"{eval_name}_{key}"] = results_default_names[
                                    key
                                ]
                    else:
                        results = self.eval_model(
                            eval_data,
                            verbose=verbose and args.evaluate_during_training_verbose,
                            silent=args.evaluate_during_training_silent,
                            evaluating_during_training=True,
                            eval_set=eval_set,
                            **kwargs,
                        )
                else:
                    results, *_ = self.eval_model(
                        eval_data,
                        additional_passages=additional_eval_passages,
                        relevant_docs=relevant_docs,
                        verbose=verbose and args.evaluate_during_training_verbose,
                        silent=args.evaluate_during_training_silent,
                        top_k_values=top_k_values,
                        evaluating_during_training=True,
                        **kwargs,
                    )

                if args.save_eval_checkpoints:
                    self.save_model(
                        output_dir_current, optimizer, scheduler, results=results
                    )

                training_progress_scores["global_step"].append(self.global_step)
                training_progress_scores["train_loss"].append(current_loss)
                for key in results:
                    training_progress_scores[key].append(results[key])

                report = pd.DataFrame(training_progress_scores)
                report.to_csv(
                    os.path.join(args.output_dir, "training_progress_scores.csv"),
                    index=False,
                )

                if args.wandb_project or self.is_sweeping:
                    wandb.log(self._get_last_metrics(training_progress_scores))

                if not best_eval_metric:
                    best_eval_metric = results[args.early_stopping_metric]
                    if args.save_best_model:
                        self.save_model(
                            args.best_model_dir,
                            optimizer,
                            scheduler,
                            context_model=context_model,
                            query_model=query_model,
                            results=results,
                        )
                if best_eval_metric and args.early_stopping_metric_minimize:
                    if (
                        results[args.early_stopping_metric] - best_eval_metric
                        < args.early_stopping_delta
                    ):
                        best_eval_metric = results[args.early_stopping_metric]
                        if args.save_best_model:
                            self.save_model(
                                args.best_model_dir,
                                optimizer,
                                scheduler,
                                context_model=context_model,
                                query_model=query_model,
                                results=results,
                            )
                        early_stopping_counter = 0
                    else:
                        if (
                            args.use_early_stopping
                            and args.early_stopping_consider_epochs
                        ):
                            if early_stopping_counter < args.early_stopping_patience:
                                early_stopping_counter += 1
                                if verbose:
                                    logger.info(
                                        f" No improvement in {args.early_stopping_metric}"
                                    )
                                    logger.info(
                                        f" Current step: {early_stopping_counter}"
                                    )
                                    logger.info(
                                        f" Early stopping patience: {args.early_stopping_patience}"
                                    )
                            else:
                                if verbose:
                                    logger.info(
                                        f" Patience of {args.early_stopping_patience} steps reached"
                                    )
                                    logger.info(" Training terminated.")
                                    train_iterator.close()
                                return (
                                    self.global_step,
                                    (
                                        tr_loss / self.global_step
                                        if not self.args.evaluate_during_training
                                        else training_progress_scores
                                    ),
                                )
                else:
                    if (
                        results[args.early_stopping_metric] - best_eval_metric
                        > args.early_stopping_delta
                    ):
                        best_eval_metric = results[args.early_stopping_metric]
                        if args.save_best_model:
                            self.save_model(
                                args.best_model_dir,
                                optimizer,
                                scheduler,
                                context_model=context_model,
                                query_model=query_model,
                                results=results,
                            )
                        early_stopping_counter = 0
                    else:
                        if (
                            args.use_early_stopping
                            and args.early_stopping_consider_epochs
                        ):
                            if early_stopping_counter < args.early_stopping_patience:
                                early_stopping_counter += 1
                                if verbose:
                                    logger.info(
                                        f" No improvement in {args.early_stopping_metric}"
                                    )
                                    logger.info(
                                        f" Current step: {early_stopping_counter}"
                                    )
                                    logger.info(
                                        f" Early stopping patience: {args.early_stopping_patience}"
                                    )
                            else:
                                if verbose:
                                    logger.info(
                                        f" Patience of {args.early_stopping_patience} steps reached"
                                    )
                                    logger.info(" Training terminated.")
                                    train_iterator.close()
                                return (
                                    self.global_step,
                                    (
                                        tr_loss / self.global_step
                                        if not self.args.evaluate_during_training
                                        else training_progress_scores
                                    ),
                                )

        return (
            self.global_step,
            (
                tr_loss / self.global_step
                if not self.args.evaluate_during_training
                else training_progress_scores
            ),
        )

